// Objection model instances -> plain objects. Repositories return these, so nothing outside db/ and
// the repositories holds a model (with its $query and lazy relations) or a query builder.
import type { Model, ModelObject, QueryBuilder } from 'objection';

export type Row<M extends Model> = ModelObject<M>;

export function plain<M extends Model>(model: M): Row<M> {
  return model.toJSON() as Row<M>;
}

export function plainOrUndefined<M extends Model>(model: M | undefined): Row<M> | undefined {
  return model ? plain(model) : undefined;
}

/**
 * The rows Postgres returned for a write (`... RETURNING`), as plain objects. A model's insert
 * answers with its input models whether or not a row was written; after ON CONFLICT DO NOTHING (or
 * a conditional UPDATE) only the returned rows say what this statement actually wrote.
 */
export async function returnedRows<T extends object>(query: QueryBuilder<Model, unknown>): Promise<T[]> {
  return (await query.toKnexQuery()) as T[];
}
