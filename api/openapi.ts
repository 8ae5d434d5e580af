// Loads openapi.yaml (the contract) and enforces it on requests, and on responses when asked (tests).
import fs from 'node:fs';
import path from 'node:path';
import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import YAML from 'yaml';
import { isApiDate, isApiDateTime } from '../domain/time/iso';

/**
 * Strict `date` and `date-time` formats (they replace ajv-formats' "fast" regexes, which accept
 * 2027-02-30 and 2026-13-01): real calendar values in the years the platform supports, checked by
 * the same helper the domain uses (domain/time/iso.ts). Responses are checked with them too.
 */
export const STRICT_FORMATS = {
  date: { type: 'string' as const, validate: (v: string) => isApiDate(v) },
  'date-time': { type: 'string' as const, validate: (v: string) => isApiDateTime(v) },
};

/** The project root holds openapi.yaml; code runs from source (api/) or compiled (dist/api/). */
function findOpenApi(dir: string): string {
  const candidate = path.join(dir, 'openapi.yaml');
  if (fs.existsSync(candidate)) return candidate;
  const parent = path.dirname(dir);
  if (parent === dir) throw new Error('openapi.yaml not found above ' + __dirname);
  return findOpenApi(parent);
}

export const OPENAPI_PATH = findOpenApi(__dirname);

/** The contract's base path (its `servers`): the validator checks every path that starts with it. */
export const API_BASE_PATH = '/api';
/** Paths the validator leaves alone: the API docs (api/docs/routes.ts). */
export const UNVALIDATED_PATHS = /^\/api\/docs/;

let cached: Record<string, unknown> | undefined;

export function loadOpenApi(): Record<string, unknown> {
  cached ??= YAML.parse(fs.readFileSync(OPENAPI_PATH, 'utf8')) as Record<string, unknown>;
  return structuredClone(cached);
}

/**
 * Query and path parameters arrive as text and are converted to the contract's types (the validator
 * always does that for them); JSON bodies are typed already, so `coerceTypes: false` leaves them as
 * sent: `"false"` for a boolean or `true` for a name is 400 VALIDATION_ERROR naming the field, and
 * `null` is refused where the contract does not allow it instead of becoming 0 or ""
 * (docs/rules/errors.md#request-bodies).
 */
export function openApiValidator(options: { validateResponses: boolean }): RequestHandler[] {
  return OpenApiValidator.middleware({
    apiSpec: loadOpenApi() as never,
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false, removeAdditional: false },
    validateResponses: options.validateResponses ? { removeAdditional: false } : false,
    validateFormats: true,
    formats: STRICT_FORMATS,
    validateSecurity: false,
    ignoreUndocumented: false,
    ignorePaths: UNVALIDATED_PATHS,
    $refParser: { mode: 'dereference' },
    // multipart bodies (POST /upload) are streamed by their route with busboy, never buffered here
    fileUploader: false,
  }) as unknown as RequestHandler[];
}
