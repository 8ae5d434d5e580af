// Refuses, before anything reads them, strings Postgres cannot store or a client cannot mean: a NUL
// character (\u0000) and unpaired UTF-16 surrogates, in the JSON body (values and keys, at any
// depth), the query string (e.g. ?search=) and the path. One middleware for every route, so a new
// route is covered without work: 400 VALIDATION_ERROR with `details` naming each field. A query
// number too large for a double is refused here too.
import type { RequestHandler } from 'express';
import { errors, type ErrorDetail } from '../../domain/errors';

const MAX_DETAILS = 20;
// eslint-disable-next-line no-control-regex
const NUL = /\u0000/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * A query number beyond what a double holds (`?page=1e400`) would be coerced to Infinity and pass
 * the contract's integer check; it is refused here, where the text is still the client's.
 */
function unrepresentableNumbers(query: Record<string, unknown>, out: ErrorDetail[]): void {
  for (const [field, value] of Object.entries(query)) {
    for (const text of Array.isArray(value) ? value : [value]) {
      if (typeof text === 'string' && NUMERIC.test(text.trim()) && !Number.isFinite(Number(text))) {
        out.push({ field, message: 'is a number too large to represent' });
      }
    }
  }
}

/**
 * A query value whose percent-encoding is not UTF-8 (a lone surrogate written as WTF-8 bytes,
 * `%ED%B0%80`) is left undecoded by the query parser and would pass as text: it is refused here,
 * naming its field, like the surrogate it stands for.
 */
function malformedQuery(url: string, out: ErrorDetail[]): void {
  const at = url.indexOf('?');
  if (at < 0) return;
  for (const pair of url.slice(at + 1).split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    const decode = (text: string) => {
      try {
        return decodeURIComponent(text.replace(/\+/g, ' '));
      } catch {
        return undefined;
      }
    };
    const key = decode(rawKey);
    if (key === undefined || (eq >= 0 && decode(pair.slice(eq + 1)) === undefined))
      out.push({ field: key ?? rawKey, message: 'has a malformed percent-encoding' });
  }
}

function problemOf(value: string): string | undefined {
  if (NUL.test(value)) return 'must not contain the NUL character (\\u0000)';
  if (LONE_SURROGATE.test(value)) return 'must be valid Unicode (no unpaired surrogate)';
  return undefined;
}

function walk(value: unknown, field: string, out: ErrorDetail[], depth = 0): void {
  if (out.length >= MAX_DETAILS || depth > 64) return;
  if (typeof value === 'string') {
    const problem = problemOf(value);
    if (problem) out.push({ field, message: problem });
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => walk(item, field ? `${field}.${i}` : String(i), out, depth + 1));
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const keyProblem = problemOf(key);
      const name = keyProblem ? JSON.stringify(key).slice(1, -1) : key;
      const path = field ? `${field}.${name}` : name;
      if (keyProblem) out.push({ field: path, message: `field name ${keyProblem}` });
      else walk(item, path, out, depth + 1);
    }
  }
}

export function inputGuard(): RequestHandler {
  return (req, _res, next) => {
    const details: ErrorDetail[] = [];
    for (const segment of req.path.split('/')) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        details.push({ field: 'path', message: 'has a malformed percent-encoding' });
        break;
      }
      const problem = problemOf(decoded);
      if (problem) {
        details.push({ field: 'path', message: problem });
        break;
      }
    }
    walk(req.query, '', details);
    malformedQuery(req.originalUrl, details);
    unrepresentableNumbers(req.query, details);
    if (req.body !== undefined) walk(req.body, '', details);
    if (details.length > 0) return next(errors.validation('Request validation failed', details));
    next();
  };
}
