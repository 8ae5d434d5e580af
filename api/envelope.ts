// The response envelope (docs/rules/errors.md#envelope), in one place.
import type { Response } from 'express';

export interface PageMeta {
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}

export interface Paged<T> {
  rows: T[];
  total: number;
  page: number;
  limit: number;
  /** a keyset-paged list's cursor of the next page (docs/api/README.md#paging); null on the last */
  nextAfter?: string | null;
}

export function pageMeta(total: number, page: number, limit: number): PageMeta {
  return { total, page, limit, totalPages: total === 0 ? 0 : Math.ceil(total / limit) };
}

/** What the envelope may carry beside the data: warnings about a change that was made (docs/rules/errors.md#envelope). */
export interface Beside {
  warnings?: { code: string; field?: string; message: string }[];
}

export function sendData<T>(res: Response, data: T, status = 200, beside: Beside = {}): void {
  res.status(status).json({ success: true, data, ...beside });
}

export function sendCreated<T>(res: Response, data: T, beside: Beside = {}): void {
  sendData(res, data, 201, beside);
}

export function sendPage<T>(res: Response, page: Paged<T>): void {
  const meta = pageMeta(page.total, page.page, page.limit);
  res.status(200).json({ success: true, data: page.rows, meta: page.nextAfter === undefined ? meta : { ...meta, nextAfter: page.nextAfter } });
}

export function sendNoContent(res: Response): void {
  res.status(204).end();
}

export function errorBody(code: string, message: string, details?: { field: string; message: string }[]) {
  return { success: false as const, error: details && details.length ? { code, message, details } : { code, message } };
}
