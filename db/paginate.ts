// Offset pagination in the shape of the envelope's `meta` (docs/rules/conventions.md#lists-and-pagination).
import type { QueryBuilder, Model } from 'objection';
import { plain, type Row } from './plain';

export interface PageQuery {
  page?: number;
  limit?: number;
}

export interface PageResult<T> {
  rows: T[];
  total: number;
  page: number;
  limit: number;
}

export const DEFAULT_LIMIT = 20;

/** One page of the query's rows, as plain objects. */
export async function paginate<M extends Model>(query: QueryBuilder<M, M[]>, { page = 1, limit = DEFAULT_LIMIT }: PageQuery): Promise<PageResult<Row<M>>> {
  const result = await query.page(page - 1, limit);
  return { rows: result.results.map(plain), total: result.total, page, limit };
}
