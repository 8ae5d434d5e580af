// Query values after express-openapi-validator (coerced, but read defensively: Express 5's req.query
// is a getter, so a coerced value may still arrive as a string).
import type { Request } from 'express';

export function intParam(req: Request, name: string): number | undefined {
  const v = (req.query as Record<string, unknown>)[name];
  return v === undefined ? undefined : Number(v);
}

export function boolParam(req: Request, name: string): boolean | undefined {
  const v = (req.query as Record<string, unknown>)[name];
  if (v === undefined) return undefined;
  return v === true || v === 'true';
}

export function strParam<T extends string = string>(req: Request, name: string): T | undefined {
  const v = (req.query as Record<string, unknown>)[name];
  return v === undefined ? undefined : (String(v) as T);
}

export function pageParams(req: Request): { page?: number; limit?: number } {
  return { page: intParam(req, 'page'), limit: intParam(req, 'limit') };
}

/** Route params are always strings in Express 5 typings for named params. */
export function param(req: Request, name: string): string {
  return String(req.params[name]);
}
