// Offset pagination in the shape of the envelope's `meta` (spec 7.1 and 8).
import type { QueryBuilder, Model } from 'objection';

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
export const MAX_LIMIT = 100;

export async function paginate<M extends Model>(
  query: QueryBuilder<M, M[]>,
  { page = 1, limit = DEFAULT_LIMIT }: PageQuery,
): Promise<PageResult<M>> {
  const result = await query.page(page - 1, limit);
  return { rows: result.results, total: result.total, page, limit };
}
