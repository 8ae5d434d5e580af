// What the personal-data tests look for (docs/rules/personal-data.md): every place a person's name,
// phone or e-mail could be left behind - every table of the database, a workflow's history (its
// inputs, signals, results, failures and markers, payloads decoded), a folder of outbox files, a
// process's log - read without knowing where the platform writes them.
import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import type { Client } from '@temporalio/client';

/** Every string of a value, payload bytes decoded as UTF-8 (a history's inputs and results are JSON bytes). */
function texts(value: unknown, out: string[]): void {
  if (value === null || value === undefined) return;
  if (typeof value === 'string') out.push(value);
  else if (value instanceof Uint8Array) out.push(Buffer.from(value).toString('utf8'));
  else if (Array.isArray(value)) for (const v of value) texts(v, out);
  else if (typeof value === 'object') for (const v of Object.values(value as Record<string, unknown>)) texts(v, out);
}

/** The workflow's whole history (every run of it, continued-as-new ones too) as text. */
export async function historyText(temporal: Client, workflowId: string): Promise<string> {
  const out: string[] = [];
  texts(await temporal.workflow.getHandle(workflowId).fetchHistory(), out);
  return out.join('\n');
}

/** The needles found in `text`, case-insensitively. */
export function mentioned(text: string, needles: string[]): string[] {
  const lower = text.toLowerCase();
  return needles.filter((n) => lower.includes(n.toLowerCase()));
}

/**
 * The tables (and how many rows of each) holding any of the needles anywhere in a row, read as text.
 * `exceptTenant`: rows of that salon do not count (where the table names its salon).
 */
export async function tablesHolding(db: Knex, needles: string[], exceptTenant?: string): Promise<Record<string, number>> {
  const { rows: tables } = (await db.raw(
    `SELECT c.table_name AS name, bool_or(c.column_name = 'tenant_id') AS "hasTenant"
       FROM information_schema.columns c JOIN information_schema.tables t ON t.table_name = c.table_name AND t.table_schema = c.table_schema
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' GROUP BY c.table_name ORDER BY c.table_name`,
  )) as { rows: { name: string; hasTenant: boolean }[] };
  const found: Record<string, number> = {};
  for (const table of tables) {
    const conditions = needles.map(() => `t::text ILIKE ?`).join(' OR ');
    const bindings: string[] = needles.map((n) => `%${n}%`);
    let sql = `SELECT count(*)::int AS n FROM ?? t WHERE (${conditions})`;
    if (exceptTenant && table.hasTenant) {
      sql += ' AND t.tenant_id IS DISTINCT FROM ?';
      bindings.push(exceptTenant);
    }
    const { rows } = (await db.raw(sql, [table.name, ...bindings])) as { rows: { n: number }[] };
    if (rows[0].n > 0) found[table.name] = rows[0].n;
  }
  return found;
}

/** The files of an outbox folder that hold any of the needles. */
export function filesHolding(dir: string, needles: string[]): string[] {
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')) : [];
  return files.filter((f) => mentioned(fs.readFileSync(path.join(dir, f), 'utf8'), needles).length > 0);
}

/** The ways a phone number is written where it could be left behind: E.164, and without its "+" (a gateway's form). */
export function phoneForms(e164: string): string[] {
  return [e164, e164.replace(/^\+/, '')];
}
