// An INSERT of plain row objects into a model's table, as SQL with `?` bindings, for statements the
// hot path composes itself (domain/booking/booking.repository.ts insertNewBooking). The model gives
// the table and its JSON columns; the row objects give the columns (camelCase keys, snake_case in
// Postgres), so a new column is still one edit where the row is built. The SQL text is built once
// per table and row shape and reused: only the bindings are computed per call. `shape` numbers it,
// so a statement composed of such INSERTs can be a named one (parsed once per connection).
import type { Knex } from 'knex';
import type { Model } from 'objection';
import { columnOf } from './column-name';

interface Shape {
  /** a number per shape, for a composed statement's name */
  id: number;
  sql: string;
  keys: string[];
  json: boolean[];
}

const shapes = new Map<string, Shape>();

function shapeOf(model: typeof Model, keys: string[], rowCount: number): Shape {
  const id = `${model.tableName}|${rowCount}|${keys.join(',')}`;
  let shape = shapes.get(id);
  if (!shape) {
    const jsonColumns = new Set(model.jsonAttributes ?? []);
    const tuple = `(${keys.map(() => '?').join(', ')})`;
    shape = {
      id: shapes.size + 1,
      sql: `INSERT INTO "${model.tableName}" (${keys.map((k) => `"${columnOf(k)}"`).join(', ')}) VALUES ${Array.from({ length: rowCount }, () => tuple).join(', ')}`,
      keys,
      json: keys.map((k) => jsonColumns.has(k)),
    };
    shapes.set(id, shape);
  }
  return shape;
}

/**
 * INSERT INTO <model's table> of `rows` (at least one). Every row must have the same keys, with no
 * undefined value (a column left out is left out of every row); JSON columns (the model's
 * `jsonAttributes`) are bound as JSON text, as the model writes them.
 */
export function insertStatement(model: typeof Model, rows: readonly object[]): { sql: string; bindings: Knex.RawBinding[]; shape: number } {
  const first = rows[0] as Record<string, unknown>;
  const keys = Object.keys(first);
  const shape = shapeOf(model, keys, rows.length);
  const bindings: Knex.RawBinding[] = [];
  for (const row of rows as readonly Record<string, unknown>[]) {
    if (row !== first && Object.keys(row).length !== keys.length) throw new Error(`insertStatement(${model.tableName}): rows of different shapes`);
    for (let i = 0; i < keys.length; i++) {
      const value = row[keys[i]];
      if (value === undefined) throw new Error(`insertStatement(${model.tableName}): ${keys[i]} is undefined`);
      bindings.push(shape.json[i] && value !== null ? JSON.stringify(value) : (value as Knex.RawBinding));
    }
  }
  return { sql: shape.sql, bindings, shape: shape.id };
}
