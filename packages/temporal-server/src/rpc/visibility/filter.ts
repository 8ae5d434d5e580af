// The list filter (visibility-query.ts) applied to any kind of execution the server lists:
// workflow runs, standalone activities and schedules each say how to read a field of one of
// theirs (a Row); filtering, ORDER BY, offset paging and GROUP BY ExecutionStatus are shared.
import { invalidArgument } from '../../errors';
import type { Payload } from '../../messages';
import { payloadToJson } from '../../proto';
import { evaluate, parseQuery, ParsedQuery, QuerySyntaxError, Row, Value } from './visibility-query';

export type { Row, Value };

const DEFAULT_PAGE_SIZE = 1000;

function asInvalidArgument<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof QuerySyntaxError) throw invalidArgument(`invalid query: ${e.message}`);
    throw e;
  }
}

export function parseFilter(query: string | undefined): ParsedQuery {
  return asInvalidArgument(() => parseQuery(query ?? ''));
}

/** A search attribute's value as the filter compares it (Datetime values as epoch ms). */
export function attributeValue(p: Payload | undefined): Value | undefined {
  if (!p) return undefined;
  const v = payloadToJson(p);
  if (typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v)) return Date.parse(v);
  return v as Value;
}

/**
 * The items matching `parsed`, in its ORDER BY order (nulls last) or else in `defaultOrder`.
 */
export function filterRows<T>(items: Iterable<T>, parsed: ParsedQuery, rowOf: (item: T) => Row, defaultOrder: (a: T, b: T) => number): T[] {
  const rows: T[] = [];
  asInvalidArgument(() => {
    for (const item of items) if (!parsed.where || evaluate(parsed.where, rowOf(item))) rows.push(item);
  });
  if (!parsed.orderBy) return rows.sort(defaultOrder);
  const { field, desc } = parsed.orderBy;
  const key = (item: T) => rowOf(item)(field) ?? null;
  return rows.sort((a, b) => {
    const x = key(a),
      y = key(b);
    const c = x === y ? 0 : x === null ? 1 : y === null ? -1 : x < y ? -1 : 1;
    return desc ? -c : c;
  });
}

/** The items of namespace `ns` matching `parsed`, ordered as filterRows orders them. */
export function matchingInNamespace<T extends { namespace: string }>(
  items: Iterable<T>,
  ns: string,
  parsed: ParsedQuery,
  rowOf: (item: T) => Row,
  defaultOrder: (a: T, b: T) => number,
): T[] {
  function* inNamespace() {
    for (const item of items) if (item.namespace === ns) yield item;
  }
  return filterRows(inNamespace(), parsed, rowOf, defaultOrder);
}

/** One page of `rows`; the page token is the offset of the next page. */
export function offsetPage<T>(rows: T[], pageSize: number | undefined, token: Uint8Array | undefined): { page: T[]; nextPageToken?: Buffer } {
  const offset = token?.length ? Number(Buffer.from(token).toString()) || 0 : 0;
  const size = (pageSize ?? 0) > 0 ? pageSize! : DEFAULT_PAGE_SIZE;
  const next = offset + size < rows.length ? Buffer.from(String(offset + size)) : undefined;
  return { page: rows.slice(offset, offset + size), nextPageToken: next };
}

/** A Keyword search attribute value, as the real server returns group values. */
function keywordPayload(value: string): Payload {
  return { metadata: { encoding: Buffer.from('json/plain'), type: Buffer.from('Keyword') }, data: Buffer.from(JSON.stringify(value)) };
}

/** Refuses what counting cannot do: like the real server, only the execution status can be grouped by. */
export function checkCountQuery(parsed: ParsedQuery): void {
  if (parsed.groupBy && parsed.groupBy !== 'ExecutionStatus')
    throw invalidArgument(`invalid query: GROUP BY ${parsed.groupBy} is not supported, only GROUP BY ExecutionStatus`);
  if (parsed.orderBy && parsed.groupBy) throw invalidArgument('invalid query: ORDER BY cannot be combined with GROUP BY');
}

/** Refuses GROUP BY in a list query. */
export function checkListQuery(parsed: ParsedQuery, what: string): void {
  if (parsed.groupBy) throw invalidArgument(`invalid query: GROUP BY is only supported when counting ${what}`);
}

/**
 * Counts by execution status. The real server's SQL visibility groups by the status column and
 * returns the groups in its order (the enum's: Running, Completed, Failed, ...), not by size.
 */
export function countByStatus<T>(rows: T[], statusOf: (item: T) => number, nameOf: (status: number) => string): { groupValues: Payload[]; count: number }[] {
  const byStatus = new Map<number, number>();
  for (const item of rows) byStatus.set(statusOf(item), (byStatus.get(statusOf(item)) ?? 0) + 1);
  return [...byStatus].sort((a, b) => a[0] - b[0]).map(([status, count]) => ({ groupValues: [keywordPayload(nameOf(status))], count }));
}
