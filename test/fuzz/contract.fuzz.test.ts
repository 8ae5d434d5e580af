// Contract fuzz suite (docs/design.md#testing): walks EVERY operation of openapi.yaml, so a new
// route is covered without work, and sends generated bad input (fast-check, fixed seed, a bounded
// number of cases per operation): missing, wrong-typed and unknown fields, huge and odd strings (NUL,
// lone surrogates), impossible dates, bad path ids and other tenants' ids, broken encodings and
// content types, without a token and with a token whose `sub` is not a UUID. Asserts for every answer:
// no 5xx; the error envelope with a specific code (never INTERNAL_ERROR); a refused request changed
// no stored row of either tenant; another tenant's id never gets a 2xx; a NUL, a lone surrogate or an
// impossible date in a field is 400 VALIDATION_ERROR naming that field; and the checks come in one
// order on every operation (docs/rules/auth.md#order-of-the-checks): with invalid input, no token is
// 401 (also on the path in other letter case), a role the route's guard refuses is 403, and a role
// it takes is 400.
// The requests reach the handlers: the setup makes a real row of every kind a path, query
// or body id names (each create must succeed, no id falls back to a random one), the router's tracing
// channel tells which requests ran their route's handler, and every operation ends with a plausible
// request from its own caller that must reach the handler and not be answered 404. It prints, per
// operation, how many requests reached the handler (not a 404), and fails when one has none.
// FUZZ_REPORT=<file> writes every failure and the per-operation figures there; FUZZ_TIMING=1 prints the
// slowest requests; FUZZ_OPS=<regex> walks only the operations whose "METHOD /template" matches.
import crypto from 'node:crypto';
import diagnostics from 'node:diagnostics_channel';
import type { Request } from 'express';
import zlib from 'node:zlib';
import { expect } from 'chai';
import fc from 'fast-check';
import request, { type Response } from 'supertest';
import { loadOpenApi } from '../../api/openapi';
import { signAccessToken } from '../../domain/auth/tokens';
import { stack, TEST_METRICS_TOKEN } from '../support/stack';
import { createAdmin, createUser, tokenFor, unique, type TestUser } from '../support/factories';
import { call } from '../support/http';
import { eventually } from '../support/eventually';
import { activateSandbox } from '../support/billing';
import { bookOnline, depositSalon, paymentPage, sandboxKey, type DepositSalon } from '../support/payments';
import { workflowsSettled } from '../support/workflow-barriers';
import { pdf, png, uploadAs } from '../support/upload-files';
import { offerToken } from '../../domain/waitlist/waitlist-tokens';
import { voucherCodeFromBytes } from '../../domain/loyalty/loyalty.rules';
import { unsubscribeToken } from '../../domain/rebooking/rebooking-tokens';
import { areaRouters } from '../../api/routes';
import { routeTable, type AppRoute } from '../../api/middleware/route-lookup';
import { provePhone, signInCustomer } from '../support/customers';
import { at, knex, localDay, type BookingSalon } from '../support/booking-fixtures';
import {
  IMPOSSIBLE_DATES,
  IMPOSSIBLE_DATE_TIMES,
  fieldPaths,
  hostileString,
  hostileValue,
  operationsOf,
  plausible,
  type Operation,
  type Param,
  type Schema,
  type ValueContext,
} from './contract-model';

const SEED = 20261122;
/** generated cases per operation (authenticated); fixed transport and auth cases come on top */
const CASES_PER_OPERATION = 7;
const GET_CONCURRENCY = 4;

type Ids = Record<string, string>;

interface Salon {
  salon: BookingSalon;
  ids: Ids;
  /** per operation (`POST /x/{id}`), what its well-behaved caller adds: the token a public link carries, a real key */
  extras: Record<string, Extra>;
}

/** What the control request of an operation adds to its plausible request. */
interface Extra {
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  /** the bearer token to send instead of the caller's (the metrics token, an impersonation token) */
  token?: string;
  /** a multipart body instead of JSON (an upload) */
  multipart?: Multipart;
}

interface Multipart {
  fields: Record<string, string>;
  file: { field: string; bytes: Buffer; name: string };
}

interface Failure {
  op: string;
  request: string;
  status: number;
  problem: string;
}

/** The kind of id a `{id}` path parameter names, from the segment before it (public links have their own rows). */
const ID_KIND: Record<string, string> = {
  resources: 'resourceId',
  services: 'serviceId',
  'service-categories': 'categoryId',
  taxes: 'taxId',
  'accounting-accounts': 'accountId',
  customers: 'customerId',
  'tenant-customers': 'tenantCustomerId',
  bookings: 'bookingId',
  tenants: 'tenantId',
  waitlist: 'waitlistEntryId',
  'loyalty-cards': 'loyaltyCardId',
  'loyalty-vouchers': 'voucherId',
  upload: 'uploadId',
  'presigned-get': 'uploadId',
  sessions: 'impersonationSessionId',
  payments: 'paymentId',
  'payment-configs': 'paymentConfigId',
  plans: 'planId',
  'billing-configs': 'billingConfigId',
  series: 'seriesId',
  'salon-notices': 'salonNoticeId',
};

function idKindOf(template: string, param: string): string {
  if (param !== 'id') return param;
  const segments = template.split('/');
  const kind = ID_KIND[segments[segments.indexOf('{id}') - 1]] ?? 'id';
  // a public link (booking, waitlist entry) is its own row, reached with its token
  return template.startsWith('/public/') ? `public${kind[0].toUpperCase()}${kind.slice(1)}` : kind;
}

function contextFor(op: Operation | undefined, salon: Salon): ValueContext {
  const date = localDay(2, salon.salon.tz);
  return {
    idFor: (name) => {
      if (name === 'id' && op) return salon.ids[idKindOf(op.template, 'id')];
      return salon.ids[name] ?? salon.ids[`${name}Id`];
    },
    unique,
    date,
    dateTime: at(date, '10:00', salon.salon.tz),
  };
}

/** The real values of an operation's path parameters; throws when the setup made no row of a kind it names. */
function pathValues(op: Operation, salon: Salon): Record<string, string> {
  const values: Record<string, string> = {};
  for (const p of op.params.filter((x) => x.in === 'path')) {
    if (p.name === 'slug' || p.name === 'tenantSlug') values[p.name] = salon.salon.tenant.slug;
    else if (Array.isArray(p.schema.enum)) values[p.name] = String(p.schema.enum[0]);
    else {
      const kind = idKindOf(op.template, p.name);
      if (!salon.ids[kind]) throw new Error(`the setup made no ${kind} for ${op.method.toUpperCase()} ${op.template}`);
      values[p.name] = salon.ids[kind];
    }
  }
  return values;
}

/** encodeURIComponent that also writes lone surrogates (as WTF-8 bytes, like a sloppy client would). */
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...value]
      .map((ch) => {
        const u = ch.charCodeAt(0);
        if (ch.length === 1 && u >= 0xd800 && u <= 0xdfff)
          return [0xed, 0xa0 | ((u >> 6) & 0x1f), 0x80 | (u & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
        return encodeURIComponent(ch);
      })
      .join('');
  }
}

function urlOf(op: Operation, path: Record<string, string>, query: Record<string, string> = {}, rawPath: Record<string, string> = {}): string {
  const p = op.template.replace(/\{([^}]+)\}/g, (_m, name: string) => rawPath[name] ?? encode(path[name]));
  const qs = Object.entries(query)
    .map(([k, v]) => `${encode(k)}=${encode(v)}`)
    .join('&');
  return `/api${p}${qs ? `?${qs}` : ''}`;
}

function setPath(target: unknown, path: (string | number)[], value: unknown, remove = false): unknown {
  const root = structuredClone(target ?? {}) as Record<string | number, unknown>;
  let node = root as Record<string | number, unknown>;
  for (const [i, key] of path.slice(0, -1).entries()) {
    // the container a missing step needs is what its next key indexes: an array for a number
    if (node[key] === null || typeof node[key] !== 'object') node[key] = typeof path[i + 1] === 'number' ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1];
  if (remove) delete node[last];
  else node[last] = value;
  return root;
}

interface Case {
  label: string;
  query?: Record<string, string>;
  rawPath?: Record<string, string>;
  path?: Record<string, string>;
  body?: unknown;
  /** raw payload with its own headers (encodings, content types) */
  raw?: { payload: string | Buffer; headers: Record<string, string> };
  token?: string | null;
  /** another tenant's id is in the request: never a 2xx */
  foreign?: boolean;
  /** a NUL, a lone surrogate or an impossible date in this field: must be 400 VALIDATION_ERROR naming it */
  refuseField?: string;
  /** the status (or one of the statuses) this request must get: the order of the access checks */
  expectStatus?: number | number[];
  /** the path exactly as sent (another letter case), instead of the operation's template */
  rawUrl?: string;
  /** the operation's plausible request from its caller: must reach the handler and not be answered 404 */
  control?: boolean;
  multipart?: Multipart;
}

type Mutation =
  | { kind: 'field'; index: number; value: unknown }
  | { kind: 'missing'; index: number }
  | { kind: 'unknown'; key: string }
  | { kind: 'wholeBody'; value: unknown }
  | { kind: 'query'; index: number; value: string }
  | { kind: 'unknownQuery'; value: string }
  | { kind: 'path'; index: number; value: string; raw: boolean }
  | { kind: 'foreignPath'; index: number }
  | { kind: 'foreignField'; index: number };

/** Query strings stay under Node's 16 KB header limit (past it Node answers 431 before the app runs). */
function asQueryValue(v: unknown): string {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? 'null');
  return s.slice(0, 4000);
}

function mutationsFor(op: Operation): fc.Arbitrary<Mutation> {
  const fields = fieldPaths(op.body);
  const required = fields.filter((f) => f.required);
  const uuidFields = fields.filter((f) => f.schema.format === 'uuid');
  const query = op.params.filter((p) => p.in === 'query');
  const path = op.params.filter((p) => p.in === 'path');
  // an unknown parameter sent empty is a parameter left out (docs/rules/errors.md#request-bodies): a
  // well-formed request, which on a deletion would take the row the operation's control request needs
  const unknownQuery = hostileString.filter((s) => s !== '').map(asQueryValue);
  const options: fc.Arbitrary<Mutation>[] = [fc.record({ kind: fc.constant('unknownQuery' as const), value: unknownQuery })];
  if (op.body) {
    options.push(fc.record({ kind: fc.constant('unknown' as const), key: fc.constantFrom('isAdmin', 'tenantId', '__proto__', 'constructor', 'x\u0000', '') }));
    options.push(
      fc.record({
        kind: fc.constant('wholeBody' as const),
        value: fc.constantFrom<unknown>(null, [], 'text', 42, true, [{}], { a: { b: { c: { d: { e: {} } } } } }),
      }),
    );
  }
  if (fields.length) {
    options.push(
      fc
        .integer({ min: 0, max: fields.length - 1 })
        .chain((index) => fc.record({ kind: fc.constant('field' as const), index: fc.constant(index), value: hostileValue(fields[index].schema) })),
      fc
        .integer({ min: 0, max: fields.length - 1 })
        .chain((index) => fc.record({ kind: fc.constant('field' as const), index: fc.constant(index), value: hostileValue(fields[index].schema) })),
    );
  }
  if (required.length)
    options.push(fc.record({ kind: fc.constant('missing' as const), index: fc.integer({ min: 0, max: fields.length - 1 }).filter((i) => fields[i].required) }));
  if (uuidFields.length)
    options.push(
      fc.record({
        kind: fc.constant('foreignField' as const),
        index: fc.integer({ min: 0, max: fields.length - 1 }).filter((i) => fields[i].schema.format === 'uuid'),
      }),
    );
  if (query.length) {
    options.push(
      fc
        .integer({ min: 0, max: query.length - 1 })
        .chain((index) =>
          fc.record({ kind: fc.constant('query' as const), index: fc.constant(index), value: hostileValue(query[index].schema).map(asQueryValue) }),
        ),
    );
  }
  if (path.length) {
    const badIds = fc.constantFrom(
      { value: 'not-a-uuid', raw: false },
      { value: crypto.randomUUID(), raw: false },
      { value: '00000000-0000-0000-0000-000000000000', raw: false },
      { value: '%00', raw: true },
      { value: 'a%00b', raw: true },
      { value: '%E0%A4%A', raw: true },
      { value: '%ED%A0%80', raw: true },
      { value: 'x'.repeat(5000), raw: false },
      { value: "1' OR '1'='1", raw: false },
    );
    options.push(
      fc
        .record({ kind: fc.constant('path' as const), index: fc.integer({ min: 0, max: path.length - 1 }), bad: badIds })
        .map(({ index, bad }) => ({ kind: 'path' as const, index, value: bad.value, raw: bad.raw })),
      fc.record({ kind: fc.constant('foreignPath' as const), index: fc.integer({ min: 0, max: path.length - 1 }) }),
    );
  }
  return fc.oneof(...options);
}

/** Values no operation may accept for a field of this schema. */
function mustRefuse(schema: Schema, value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (/\u0000/.test(value) || /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value)) return true;
  const isDate = schema.format === 'date' || schema.format === 'date-time';
  return isDate && (IMPOSSIBLE_DATES.includes(value) || IMPOSSIBLE_DATE_TIMES.includes(value));
}

/** Plausible values of the required query parameters (e.g. availability's serviceId and date). */
function requiredQuery(op: Operation, ctx: ValueContext): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of op.params.filter((x) => x.in === 'query' && x.required)) {
    const v = plausible(p.schema, p.name, ctx);
    if (v !== undefined) out[p.name] = String(v);
  }
  return out;
}

function generatedCases(op: Operation, mine: Salon, theirs: Salon, seed: number): Case[] {
  const ctx = contextFor(op, mine);
  const baseBody = op.body ? plausible(op.body, 'body', ctx) : undefined;
  const basePath = pathValues(op, mine);
  const baseQuery = requiredQuery(op, ctx);
  const fields = fieldPaths(op.body);
  const query = op.params.filter((p) => p.in === 'query');
  const pathParams = op.params.filter((p) => p.in === 'path');
  const theirPath = pathValues(op, theirs);
  const theirCtx = contextFor(op, theirs);
  return fc.sample(mutationsFor(op), { seed, numRuns: CASES_PER_OPERATION }).map((m): Case => {
    switch (m.kind) {
      case 'field': {
        const field = fields[m.index];
        const name = field.path.join('.');
        return {
          label: `body.${name} = ${preview(m.value)}`,
          path: basePath,
          query: baseQuery,
          body: setPath(baseBody, field.path, m.value),
          refuseField: mustRefuse(field.schema, m.value) ? name : undefined,
        };
      }
      case 'missing':
        return {
          label: `body.${fields[m.index].path.join('.')} missing`,
          path: basePath,
          query: baseQuery,
          body: setPath(baseBody, fields[m.index].path, undefined, true),
        };
      case 'unknown':
        return {
          label: `unknown body field ${JSON.stringify(m.key)}`,
          path: basePath,
          body:
            m.key === '__proto__'
              ? JSON.parse(
                  `${JSON.stringify(baseBody ?? {}).slice(0, -1)}${Object.keys((baseBody as object) ?? {}).length ? ',' : ''}"__proto__":{"isAdmin":true}}`,
                )
              : { ...(baseBody as object), [m.key]: 'x' },
        };
      case 'wholeBody':
        return { label: `body = ${preview(m.value)}`, path: basePath, query: baseQuery, body: m.value };
      case 'query': {
        const param = query[m.index];
        return {
          label: `?${param.name}=${preview(m.value)}`,
          path: basePath,
          body: baseBody,
          query: { ...baseQuery, [param.name]: m.value },
          refuseField: mustRefuse(param.schema, m.value) ? param.name : undefined,
        };
      }
      case 'unknownQuery':
        return { label: `?unknownParam=${preview(m.value)}`, path: basePath, body: baseBody, query: { ...baseQuery, unknownParam: m.value } };
      case 'path': {
        const p: Param = pathParams[m.index];
        return {
          label: `path ${p.name} = ${preview(m.value)}`,
          path: { ...basePath, [p.name]: m.value },
          rawPath: m.raw ? { [p.name]: m.value } : {},
          body: baseBody,
        };
      }
      case 'foreignPath': {
        const p: Param = pathParams[m.index];
        // a slug is public (the portal is reached by it), a series' occurrence index is a number, not a row; ids of another tenant must never answer 2xx
        return {
          label: `path ${p.name} = other tenant's`,
          path: { ...basePath, [p.name]: theirPath[p.name] },
          body: baseBody,
          foreign: !['status', 'slug', 'tenantSlug', 'provider', 'index'].includes(p.name),
        };
      }
      case 'foreignField': {
        const field = fields[m.index];
        const key = String(field.path[field.path.length - 1]);
        const foreignId = theirCtx.idFor(key);
        return {
          label: `body.${field.path.join('.')} = other tenant's`,
          path: basePath,
          body: setPath(baseBody, field.path, foreignId ?? crypto.randomUUID()),
          foreign: foreignId !== undefined,
        };
      }
    }
  });
}

/** Broken transport: encodings, charsets, content types, malformed and oversize JSON. */
function transportCases(op: Operation, mine: Salon, bodyLimitBytes: number): Case[] {
  const path = pathValues(op, mine);
  const json = { 'content-type': 'application/json' };
  const cases: Case[] = [
    { label: 'malformed JSON', path, raw: { payload: '{"a": ', headers: json } },
    { label: 'content-encoding compress', path, raw: { payload: '{}', headers: { ...json, 'content-encoding': 'compress' } } },
  ];
  if (op.body) {
    cases.push(
      { label: 'content-encoding gzip on a body that is not gzip', path, raw: { payload: '{"name":"x"}', headers: { ...json, 'content-encoding': 'gzip' } } },
      {
        label: 'gzip body with a NUL inside',
        path,
        raw: { payload: zlib.gzipSync('{"name":"a\\u0000b","notes":"a\\u0000b"}'), headers: { ...json, 'content-encoding': 'gzip' } },
      },
      { label: 'charset latin1', path, raw: { payload: '{"name":"caf\u00e9"}', headers: { 'content-type': 'application/json; charset=latin1' } } },
      { label: 'content-type text/plain', path, raw: { payload: 'hello', headers: { 'content-type': 'text/plain' } } },
      { label: 'oversize JSON body', path, raw: { payload: JSON.stringify({ notes: 'x'.repeat(bodyLimitBytes + 10) }), headers: json } },
    );
  }
  return cases;
}

interface RoleTokens {
  staff: string;
  owner: string;
  customer: string;
}

/**
 * The order of the access checks, with input that is invalid on every operation (an unknown query
 * parameter, and a body that is not an object): no token is 401 on a secured operation (also on the
 * path in other letter case); a staff role the route's guard refuses is 403; the role it takes is
 * 400. `route` is the app's own route for the operation (its guard is the route's declaration).
 */
function orderCases(op: Operation, mine: Salon, route: AppRoute | undefined, tokens: RoleTokens): { c: Case; token: string | null }[] {
  const path = pathValues(op, mine);
  const invalid = { path, query: { ...requiredQuery(op, contextFor(op, mine)), unknownParam: 'x' }, body: op.body ? 42 : undefined };
  const secured = op.secured || op.customerOnly || op.staffOrCustomer || route?.guard !== undefined;
  const out: { c: Case; token: string | null }[] = [];
  if (secured) {
    out.push({ c: { label: 'order: no token, invalid input', ...invalid, expectStatus: 401 }, token: null });
    const url = urlOf(op, path, invalid.query);
    const shouted = url.replace(/^\/api\/([a-z][a-z-]*)/, (_m, first: string) => `/api/${first.toUpperCase()}`);
    if (shouted !== url)
      out.push({ c: { label: `order: no token, invalid input, path ${shouted.split('?')[0]}`, ...invalid, rawUrl: shouted, expectStatus: 401 }, token: null });
  }
  if (op.customerOnly)
    out.push({ c: { label: 'order: a staff token on a customer route, invalid input', ...invalid, expectStatus: 401 }, token: tokens.owner });
  if (route?.guard) {
    for (const [role, token] of [
      ['STAFF', tokens.staff],
      ['OWNER', tokens.owner],
    ] as const) {
      const allowed = route.guard.allows({ userId: mine.salon.owner.id, tenantId: mine.salon.tenant.id, role });
      // an invalid body or query is 400; a multipart route sent no multipart body is 415
      out.push({
        c: { label: `order: ${role} ${allowed ? 'may call it' : 'is refused'}, invalid input`, ...invalid, expectStatus: allowed ? [400, 415] : 403 },
        token,
      });
    }
  } else if (op.customerOnly) {
    out.push({ c: { label: 'order: the customer, invalid input', ...invalid, expectStatus: 400 }, token: tokens.customer });
  }
  return out;
}

function preview(value: unknown): string {
  const s = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return s.length > 40 ? `${s.slice(0, 37)}...(${s.length})` : s;
}

// Which requests ran their route's handler, read from the router's own tracing channel (published
// for every middleware and handler it runs while someone listens): a request reached its handler
// when the last function of the route it matched (`req.route`) started. Each fuzz request carries
// its number in a header, the handler's start is noted under it.
const HANDLER_START = 'tracing:express.router.request:start';
const FUZZ_HEADER = 'x-fuzz-request';
const handlerStarted = new Set<string>();
let sent = 0;

function onLayerStart(message: unknown): void {
  const { req, layer } = message as { req: Request; layer: unknown };
  const id = req.get(FUZZ_HEADER);
  if (id && req.route && layer === req.route.stack[req.route.stack.length - 1]) handlerStarted.add(id);
}

/** A fuzz request's answer, and whether the request ran its route's handler. */
type Answer = Response & { reachedHandler: boolean };

async function send(op: Operation, c: Case, token: string | null): Promise<Answer> {
  const id = String(++sent);
  let req = request((await stack()).baseUrl)
    [op.method](c.rawUrl ?? urlOf(op, c.path ?? {}, c.query, c.rawPath))
    .set(FUZZ_HEADER, id);
  if (token) req = req.set('Authorization', `Bearer ${token}`);
  let res: Response;
  if (c.multipart) {
    for (const [k, v] of Object.entries(c.multipart.fields)) req = req.field(k, v);
    res = await req.attach(c.multipart.file.field, c.multipart.file.bytes, { filename: c.multipart.file.name });
  } else if (c.raw) {
    for (const [k, v] of Object.entries(c.raw.headers)) req = req.set(k, v);
    // as-is: superagent would JSON-encode a Buffer sent with a JSON content type
    res = await req.serialize((raw: unknown) => raw as string).send(c.raw.payload as string);
  } else if (c.body !== undefined && op.method !== 'get' && op.method !== 'delete') {
    res = await req.set('content-type', 'application/json').send(JSON.stringify(c.body));
  } else {
    res = await req;
  }
  return Object.assign(res, { reachedHandler: handlerStarted.delete(id) });
}

function nameOf(op: Operation): string {
  return `${op.method.toUpperCase()} ${op.template}`;
}

/** The id kinds an operation names (path, query, body) that the salon's setup did not make. */
function missingIds(op: Operation, salon: Salon): string[] {
  const missing: string[] = [];
  try {
    pathValues(op, salon);
  } catch (e) {
    missing.push((e as Error).message);
  }
  const ctx = contextFor(op, salon);
  const named = [
    ...op.params.filter((p) => p.in === 'query' && (p.schema.format === 'uuid' || /Id$/.test(p.name))).map((p) => p.name),
    ...fieldPaths(op.body)
      .filter((f) => f.schema.format === 'uuid' || f.schema.items?.format === 'uuid')
      .map((f) => String(f.path.filter((k) => typeof k === 'string').at(-1)).replace(/Ids$/, 'Id')),
  ];
  for (const name of named) if (!ctx.idFor(name)) missing.push(`the setup made no ${name} for ${nameOf(op)}`);
  return missing;
}

/**
 * The operation's plausible request, with what its caller adds (a link's token, a real key), from
 * the caller it is for: a customer on customer routes, the owner where the route's guard lets the
 * owner in, else the platform admin; nobody on public routes.
 */
function controlCase(
  op: Operation,
  salon: Salon,
  route: AppRoute | undefined,
  callers: { owner: string; admin: TestUser; customer: string },
): { c: Case; token: string | null } {
  const extra = salon.extras[nameOf(op)] ?? {};
  const ctx = contextFor(op, salon);
  const base = op.body ? plausible(op.body, 'body', ctx) : undefined;
  const body = extra.body ? { ...(base as object), ...extra.body } : base;
  const c: Case = {
    label: 'control: a plausible request from its caller',
    path: pathValues(op, salon),
    query: { ...requiredQuery(op, ctx), ...extra.query },
    body,
    multipart: extra.multipart,
    control: true,
  };
  let token: string | null = null;
  if (extra.token) token = extra.token;
  else if (op.customerOnly) token = callers.customer;
  else if (route?.guard)
    token = route.guard.allows({ userId: salon.salon.owner.id, tenantId: salon.salon.tenant.id, role: 'OWNER' }) ? callers.owner : callers.admin.token;
  else if (op.secured || op.staffOrCustomer) token = callers.owner;
  return { c, token };
}

/** Row count and a checksum of every row of the two tenants, in every table that has `tenant_id`. */
async function snapshotter(tenantIds: string[]): Promise<() => Promise<string>> {
  const db = await knex();
  // the record of a personal-data export is the one row a read writes: its audit, as a log line is a
  // request's (docs/rules/personal-data.md#access-and-portability); a refused export records none
  // (test/api/personal-data/export.test.ts)
  const tables: string[] = (await db('information_schema.columns').where({ tableSchema: 'public', columnName: 'tenant_id' }).select('tableName'))
    .map((r: { tableName: string }) => r.tableName)
    .filter((t: string) => t !== 'personal_data_exports');
  // a sum of the rows' hashes: independent of row order, so no sort of the rows' text per snapshot
  const digest = `count(*)::int AS n, coalesce(sum(hashtextextended(x::text, 0)), 0)::text AS h`;
  const parts = tables.map((t) => `SELECT '${t}' AS t, ${digest} FROM "${t}" x WHERE tenant_id = ANY(?::uuid[])`);
  parts.push(`SELECT 'tenants' AS t, ${digest} FROM tenants x WHERE id = ANY(?::uuid[])`);
  const sql = parts.join(' UNION ALL ');
  const bindings = parts.map(() => tenantIds);
  return async () => {
    const { rows } = await db.raw(sql, bindings);
    return (rows as { t: string; n: number; h: string }[]).map((r) => `${r.t}:${r.n}:${r.h}`).join(';');
  };
}

/** The tables whose rows differ between two snapshots, for the failure's text. */
function changedTables(before: string, after: string): string {
  const rowsOf = (snapshot: string) => new Map(snapshot.split(';').map((entry) => [entry.split(':')[0], entry]));
  const [was, is] = [rowsOf(before), rowsOf(after)];
  return [...is]
    .filter(([table, entry]) => was.get(table) !== entry)
    .map(([table, entry]) => `${table} ${was.get(table)?.split(':')[1]} -> ${entry.split(':')[1]} rows`)
    .join(', ');
}

/** Rows outside any salon that admin operations name: one plan, one billing config, one impersonation session. */
interface PlatformRows {
  ids: Ids;
  impersonationToken: string;
}

async function platformRows(admin: TestUser, tenantId: string): Promise<PlatformRows> {
  const db = await knex();
  const ok = async (res: Response, what: string) => {
    expect(res.status, `setup: ${what}: ${JSON.stringify(res.body)}`).to.be.oneOf([200, 201]);
    return res.body.data;
  };
  const plan = await ok(
    await call('post', '/admin/superadmin/plans', admin.token, {
      planKey: unique('fuzz_plan').replace(/-/g, '_'),
      displayName: 'Fuzz',
      displayNameNb: 'Fuzz',
      billingCycle: 'monthly',
      isPublic: false,
      selfServeCheckout: false,
    }),
    'a plan',
  );
  // one config per provider and mode: the fuzz keeps its own (a live Lemon Squeezy one, which no test activates)
  await db('platform_billing_configs').where({ provider: 'lemonsqueezy', isTest: false }).delete();
  const billingConfig = await ok(
    await call('post', '/superadmin/billing-configs', admin.token, {
      provider: 'lemonsqueezy',
      isTest: false,
      apiBaseUrl: 'https://api.lemonsqueezy.test',
      displayName: 'Fuzz',
      storeId: '1',
      credentials: { apiKey: 'fuzz', webhookSecret: 'fuzz-secret' },
    }),
    'a billing config',
  );
  const session = await ok(await call('post', '/superadmin/impersonate/start', admin.token, { tenantId, reason: 'contract fuzz' }), 'an impersonation session');
  return { ids: { planId: plan.id, billingConfigId: billingConfig.id, impersonationSessionId: session.session.id }, impersonationToken: session.accessToken };
}

/**
 * Real rows of every kind a path, query or body id names, so that the requests reach the handlers:
 * made through the API where a route makes them (each create must succeed), the rows only the
 * worker makes (an offer from a freed time) by the worker, and a voucher as the worker writes it.
 */
/** The phones the signed-in customer's bookings were made with: proven after the setup, so the salons' records are the account's (docs/rules/customers.md#linking-an-account). */
const customerPhones: string[] = [];

async function populate(salon: DepositSalon, ops: Operation[], platform: PlatformRows, customerToken: string): Promise<Salon> {
  const db = await knex();
  const { config } = await stack();
  const ids: Ids = {
    ...platform.ids,
    tenantId: salon.tenant.id,
    serviceId: salon.serviceId,
    resourceId: salon.staff[0].resourceId,
    paymentConfigId: salon.configId,
    // the provider named in a webhook's path
    provider: 'sandbox',
  };
  const me: Salon = { salon, ids, extras: {} };
  const owner = salon.owner.token;
  const ok = (res: Response, what: string) => {
    expect(res.status, `setup: ${what}: ${JSON.stringify(res.body)}`).to.be.oneOf([200, 201]);
    return res.body.data;
  };
  // the operation's own plausible body (so the fuzz's "one field wrong" starts from a valid request)
  const create = async (template: string, idName: string, body?: Record<string, unknown>) => {
    const op = ops.find((o) => o.method === 'post' && o.template === template);
    expect(op, `setup: POST ${template} is in the contract`).to.not.equal(undefined);
    const plausibleBody = plausible(op!.body, 'body', contextFor(op, me)) as Record<string, unknown>;
    const res = await send(op!, { label: 'setup', path: pathValues(op!, me), body: { ...plausibleBody, ...body } }, owner);
    ids[idName] = ok(res, `POST ${template}`).id;
  };
  const later = localDay(40, salon.tz);
  await create('/service-categories', 'categoryId');
  await create('/taxes', 'taxId');
  await create('/accounting-accounts', 'accountId');
  ids.accountingAccountId = ids.accountId;
  await create('/customers', 'customerId', { phone: `+479${crypto.randomInt(1e6, 1e7 - 1)}` });
  // overrides and time off on a later day than the bookings below, which they would close
  await create('/resources/{id}/schedule-overrides', 'overrideId', { date: later });
  await create('/resources/{id}/time-offs', 'timeOffId', { startDate: later, endDate: later });
  // one service with one chosen staff member, so a standing appointment can be made from it
  await create('/bookings', 'bookingId', { customerId: ids.customerId, items: [{ serviceId: ids.serviceId, resourceId: ids.resourceId }] });
  // a standing appointment from it whose next occurrence lies beyond the window (the worker books nothing meanwhile)
  await create('/series', 'seriesId', { bookingId: ids.bookingId, intervalWeeks: 26, occurrenceCount: 2, untilDate: undefined });
  ids.index = '1';
  // the times that booking could move to (GET /availability), and a notice about it for the owner (written by the workflow in the platform)
  ids.excludeBookingId = ids.bookingId;
  ids.salonNoticeId = (
    await db('salon_notices').insert({ tenantId: salon.tenant.id, bookingId: ids.bookingId, kind: 'APPROVAL_NEEDED' }).returning('id')
  )[0].id;
  await create('/loyalty-cards', 'loyaltyCardId', { type: 'VISIT_BASED', requiredStamps: 5, rewardType: 'DISCOUNT_AMOUNT', rewardValue: 20000 });
  await create('/waitlist', 'waitlistEntryId', {
    fromDate: localDay(6, salon.tz),
    toDate: localDay(6, salon.tz),
    customer: { name: 'Fuzz Venter', phone: `+479${crypto.randomInt(1e6, 1e7 - 1)}` },
  });
  ids.scheduleId = (await db('resource_schedules').where({ resourceId: ids.resourceId }).first('id')).id;
  ids.tenantCustomerId = (await db('tenant_customers').where({ tenantId: salon.tenant.id, customerId: ids.customerId }).first('id')).id;

  // a voucher, as the worker writes it when a card fills up (a code of its shape, which the contract's pattern takes)
  const voucherCode = voucherCodeFromBytes(crypto.randomBytes(8));
  const [voucher] = await db('loyalty_vouchers')
    .insert({
      tenantId: salon.tenant.id,
      loyaltyCardId: ids.loyaltyCardId,
      tenantCustomerId: ids.tenantCustomerId,
      code: voucherCode,
      rewardType: 'DISCOUNT_AMOUNT',
      rewardValue: 20000,
      issuedFromCycleNumber: 1,
    })
    .returning('id');
  ids.voucherId = voucher.id;

  // an image (signed for the image proxy) and a document put through its presigned URL
  const logo = ok(await uploadAs(owner, 'TENANT_LOGO', await png(64, 32)), 'an image upload');
  ids.uploadId = logo.id;
  const signed = ok(await call('get', `/image-proxy/sign?key=${encodeURIComponent(logo.key)}`, owner), 'a signed image URL');
  const doc = pdf(600);
  const presigned = ok(
    await call('post', '/upload/presigned-put', owner, { purpose: 'ONBOARDING_DOC', mimeType: 'application/pdf', sizeBytes: doc.length }),
    'a presigned upload',
  );
  expect((await fetch(presigned.uploadUrl, { method: 'PUT', body: doc, headers: presigned.headers })).status, 'setup: the document PUT').to.equal(200);
  ids.fileId = presigned.fileId;

  // the signed-in customer's booking with its deposit payment (so the customer is the salon's too),
  // and a freed time offered to a guest on the waitlist
  const booking = await bookOnline(salon, 3, '10:00', customerToken);
  customerPhones.push(booking.phone);
  ids.publicBookingId = booking.id;
  ids.paymentId = (await paymentPage(salon, booking)).paymentId;
  const freed = await bookOnline(salon, 5, '13:00');
  const waiter = ok(
    await call('post', `/public/tenants/${salon.tenant.slug}/waitlist`, undefined, {
      serviceIds: [salon.serviceId],
      fromDate: localDay(5, salon.tz),
      toDate: localDay(5, salon.tz),
      customer: { name: 'Fuzz Gjest', phone: `+479${crypto.randomInt(1e6, 1e7 - 1)}` },
    }),
    'a guest on the waitlist',
  );
  ids.publicWaitlistEntryId = waiter.id;
  ok(await call('post', `/bookings/${freed.id}/cancel`, owner, { bySalon: true }), 'freeing a time');
  ids.offerId = await eventually(
    async () => (await db('waitlist_offers').where({ entryId: waiter.id }).first('id'))?.id as string | undefined,
    'the worker offering the freed time',
  );
  const offer = { token: offerToken(config.keys.waitlistOffer, ids.offerId) };

  // a subscription in its trial, as registering a salon starts one
  await db('subscriptions').insert({ tenantId: salon.tenant.id, planKey: 'start', status: 'ACTIVE', trialEndsAt: new Date(Date.now() + 14 * 86_400_000) });
  await db('tenants').where({ id: salon.tenant.id }).update({ subscriptionStatus: 'ACTIVE' });

  // the domain the TLS edge asks about
  const domain = `${salon.tenant.slug}.fuzz.test`;
  await db('tenants').where({ id: salon.tenant.id }).update({ customDomain: domain });

  const extras: Record<string, Extra> = {
    'GET /internal/tls-allow': { query: { domain } },
    'GET /image-proxy/sign': { query: { key: logo.key } },
    'GET /image-proxy/render': { query: Object.fromEntries(new URL(signed.url, 'http://x').searchParams) },
    'GET /public/tenants/{slug}/bookings/{id}': { query: { token: booking.token } },
    'POST /public/tenants/{slug}/bookings/{id}/cancel': { body: { token: booking.token } },
    'POST /public/tenants/{slug}/bookings/{id}/promise': { body: { token: booking.token } },
    'POST /public/tenants/{slug}/bookings/{id}/confirm': { body: { token: booking.token } },
    'POST /public/tenants/{slug}/vouchers/preview': { body: { code: voucherCode } },
    'GET /public/tenants/{slug}/bookings/{id}/payment': { query: { token: booking.token } },
    'POST /public/tenants/{slug}/bookings/{id}/payment/retry': { body: { token: booking.token } },
    'GET /public/tenants/{slug}/waitlist/{id}': { query: { token: waiter.token } },
    'DELETE /public/tenants/{slug}/waitlist/{id}': { query: { token: waiter.token } },
    'GET /public/tenants/{slug}/waitlist/offers/{offerId}': { query: offer },
    'POST /public/tenants/{slug}/waitlist/offers/{offerId}/accept': { body: offer },
    'POST /public/tenants/{slug}/waitlist/offers/{offerId}/decline': { body: offer },
    'POST /superadmin/impersonate/end': { token: platform.impersonationToken },
    'POST /customer/me/series': { body: { bookingId: booking.id, intervalWeeks: 26, occurrenceCount: 2 } },
    'PUT /customer/me/preferences': { body: { rebookingNudges: true } },
    'POST /public/tenants/{slug}/rebooking-nudges/unsubscribe': {
      body: { customerId: ids.customerId, token: unsubscribeToken(config.keys.rebookingUnsubscribe, ids.customerId) },
    },
    'POST /upload': { multipart: { fields: { purpose: 'TENANT_LOGO' }, file: { field: 'file', bytes: await png(64, 32), name: 'logo.png' } } },
    // the staff member keeps the service (the bookings of the other controls need it)
    'POST /resources/{id}/skills': { body: { serviceIds: [salon.serviceId] } },
    'PUT /resources/{id}/skills': { body: { serviceIds: [salon.serviceId] } },
    'PUT /services/{id}/resources': { body: { resourceIds: [salon.staff[0].resourceId] } },
    'POST /admin/payment-configs': { body: { provider: 'sandbox', displayName: 'Sandbox 2', captureMode: 'AUTO', credentials: { apiKey: sandboxKey() } } },
    'POST /admin/payment-configs/{id}/rotate': { body: { credentials: { apiKey: sandboxKey() } } },
  };
  Object.assign(me.extras, extras);
  return me;
}

function checkAnswer(res: Response, failures: Failure[], where: { op: string; request: string }, c: Case): void {
  const fail = (problem: string) => failures.push({ ...where, status: res.status, problem });
  if (res.status >= 500) fail(`5xx: ${JSON.stringify(res.body).slice(0, 300)}`);
  if (c.foreign && res.status < 300) fail("another tenant's id got a 2xx");
  if (c.expectStatus !== undefined && ![c.expectStatus].flat().includes(res.status))
    fail(`expected ${c.expectStatus} (token, then role, then validation): ${JSON.stringify(res.body?.error ?? res.body).slice(0, 200)}`);
  if (c.refuseField) {
    const details = (res.body?.error?.details ?? []) as { field?: string }[];
    if (res.status !== 400 || res.body?.error?.code !== 'VALIDATION_ERROR') fail(`not refused with 400 VALIDATION_ERROR (${res.body?.error?.code})`);
    else if (!details.some((d) => d.field === c.refuseField)) fail(`details do not name ${c.refuseField}: ${JSON.stringify(details).slice(0, 200)}`);
  }
  if (res.status >= 400) {
    const body = res.body as { success?: unknown; error?: { code?: unknown; message?: unknown } };
    if (body?.success !== false || typeof body.error?.code !== 'string' || typeof body.error?.message !== 'string')
      fail(`no error envelope: ${res.text.slice(0, 200)}`);
    else if (!/^[A-Z][A-Z0-9_]+$/.test(body.error.code) || ['INTERNAL_ERROR', 'ERROR', 'FAILED', 'INVALID'].includes(body.error.code))
      fail(`unspecific code ${body.error.code}`);
  }
}

describe('contract fuzz: every openapi.yaml operation with generated bad input', function () {
  this.timeout(600_000);

  it("when hostile clients call every operation then no 5xx, always the envelope with a specific code, refused requests change nothing, and every operation's handler is reached", async () => {
    const { config } = await stack();
    const started = Date.now();
    const allOps = operationsOf(loadOpenApi() as Schema);
    expect(allOps.length).to.be.greaterThan(80);
    const ops = process.env.FUZZ_OPS ? allOps.filter((op) => new RegExp(process.env.FUZZ_OPS!).test(`${op.method.toUpperCase()} ${op.template}`)) : allOps;
    const since = new Date();
    // the platform as it runs: a billing provider active (subscription webhooks and checkout need one)
    await activateSandbox();
    const admin = await createAdmin();
    const customer = await signInCustomer();
    const customerToken = customer.accessToken;
    const [mineSalon, theirsSalon] = await Promise.all([depositSalon(), depositSalon()]);
    const platformIds = await platformRows(admin, mineSalon.tenant.id);
    const [mine, theirs] = await Promise.all([
      populate(mineSalon, allOps, platformIds, customerToken),
      populate(theirsSalon, allOps, platformIds, customerToken),
    ]);
    // a typed phone links nothing: the customer proves each booking's phone, one at a time
    for (const phone of customerPhones) await provePhone(customer, phone);
    // every kind of id a path, query or body names was made, in both salons
    expect(allOps.flatMap((op) => missingIds(op, mine).concat(missingIds(op, theirs)))).to.deep.equal([]);
    // global settings the admin's control requests send back as they are; a plan and a feature of the fuzz's own
    const settings = await call('get', '/superadmin/platform-settings', admin.token);
    const publicPlans = await call('get', '/public/plans');
    Object.assign(mine.extras, {
      'PATCH /superadmin/platform-settings': { body: { bookingUiVersion: settings.body.data.bookingUiVersion } },
      'POST /admin/superadmin/plans': { body: { planKey: unique('fuzz_plan').replace(/-/g, '_') } },
      'POST /admin/superadmin/plan-features': { body: { featureKey: unique('fuzz_feature').replace(/-/g, '_') } },
      'POST /subscription/checkout': { body: { planKey: publicPlans.body.data[0].planKey } },
      // the fuzz's own provider and mode again: 409, no second config
      'POST /superadmin/billing-configs': { body: { provider: 'lemonsqueezy', isTest: false, apiBaseUrl: 'https://api.lemonsqueezy.test' } },
      'GET /metrics': { token: TEST_METRICS_TOKEN },
    } satisfies Record<string, Extra>);
    const snapshot = await snapshotter([mine.salon.tenant.id, theirs.salon.tenant.id]);
    const bodyLimitBytes = /^(\d+)\s*kb$/i.test(config.bodyLimit)
      ? Number(/^(\d+)/.exec(config.bodyLimit)![1]) * 1024
      : /^(\d+)\s*mb$/i.test(config.bodyLimit)
        ? Number(/^(\d+)/.exec(config.bodyLimit)![1]) * 1024 * 1024
        : 1024 * 1024;
    const staffToken = (await createUser(mine.salon.tenant.id, 'STAFF')).token;
    const routes = routeTable(areaRouters((await stack()).platform.deps));
    const routeOf = (op: Operation) => {
      const url = urlOf(op, pathValues(op, mine));
      return routes.find((r) => r.method === op.method.toUpperCase() && r.pattern.test(url));
    };
    const badSubToken = signAccessToken(
      { secret: config.keys.accessToken, accessTtlSeconds: 600 },
      { sub: 'not-a-uuid', tenantId: mine.salon.tenant.id, role: 'OWNER', tv: 0, sid: crypto.randomUUID() },
    );
    // A refused request may never log the owner out, but an accepted one may (logout, password): re-signed per operation.
    const ownerToken = async () => {
      const owner = await (await knex())('users').where({ id: mine.salon.owner.id }).first('tokenVersion');
      return tokenFor({ id: mine.salon.owner.id, tenantId: mine.salon.tenant.id, role: 'OWNER', tokenVersion: owner.tokenVersion });
    };
    const failures: Failure[] = [];
    let requests = 0;
    let snapshotMs = 0;
    let settleMs = 0;
    const timedSettle = async () => {
      const t0 = Date.now();
      await workflowsSettled(since, 'the workflows an accepted request started to settle');
      settleMs += Date.now() - t0;
    };
    const timing: [number, string][] = [];
    /** per operation: requests sent, and how many of them ran the route's handler and were not answered 404 */
    const reached = new Map<string, { requests: number; reached: number }>();
    const timedSnapshot = async () => {
      const t0 = Date.now();
      const v = await snapshot();
      snapshotMs += Date.now() - t0;
      return v;
    };
    // what the setup set off (messages, payment sessions, the offer) is written before the first snapshot
    await workflowsSettled(since, "the setup's workflows to settle");
    let before = await snapshot();
    const setupSeconds = (Date.now() - started) / 1000;

    const answer = async (op: Operation, { c, token: t }: { c: Case; token: string | null }) => {
      const name = nameOf(op);
      const t0 = Date.now();
      const res = await send(op, c, t);
      if (process.env.FUZZ_TIMING) timing.push([Date.now() - t0, `${name} ${c.label}`]);
      requests++;
      const figures = reached.get(name) ?? { requests: 0, reached: 0 };
      reached.set(name, figures);
      figures.requests++;
      if (res.reachedHandler && res.status !== 404) figures.reached++;
      const where = { op: name, request: c.label };
      checkAnswer(res, failures, where, c);
      if ((op.secured || op.customerOnly) && t === null && res.status !== 401)
        failures.push({ ...where, status: res.status, problem: 'secured operation without a token is not 401' });
      if (op.secured && t === badSubToken && (res.status !== 401 || res.body?.error?.code !== 'UNAUTHORIZED'))
        failures.push({ ...where, status: res.status, problem: 'token with a non-UUID sub is not 401 UNAUTHORIZED' });
      if (c.control && !(res.reachedHandler && res.status !== 404)) {
        failures.push({
          ...where,
          status: res.status,
          problem: `the plausible request did not reach the handler (${res.reachedHandler ? 'the handler answered 404' : 'answered before it'}): ${JSON.stringify(res.body?.error ?? res.body).slice(0, 200)}`,
        });
      }
      return res;
    };
    /** Writes one at a time, with a snapshot after each: a refused one must have changed nothing. */
    const answerOneByOne = async (op: Operation, cases: { c: Case; token: string | null }[]) => {
      for (const one of cases) {
        const res = await answer(op, one);
        // an accepted write may start work in the worker: it is written before the next snapshot
        if (res.status < 400) await timedSettle();
        const after = await timedSnapshot();
        if (res.status >= 400 && after !== before)
          failures.push({
            op: nameOf(op),
            request: one.c.label,
            status: res.status,
            problem: `a refused request changed stored data (${changedTables(before, after)})`,
          });
        before = after;
      }
    };

    diagnostics.subscribe(HANDLER_START, onLayerStart);
    try {
      for (const [index, op] of ops.entries()) {
        const name = nameOf(op);
        const token = await ownerToken();
        // customer routes get a signed-in customer's token instead of the owner's
        const opToken = op.customerOnly ? customerToken : token;
        // On a route the owner may not call, the role is refused first whatever the input (403); the
        // fields that must be refused (NUL, lone surrogates, impossible dates) are sent by the admin.
        const route = routeOf(op);
        const ownerRefused = route?.guard !== undefined && !route.guard.allows({ userId: mine.salon.owner.id, tenantId: mine.salon.tenant.id, role: 'OWNER' });
        const adminAllowed = route?.guard?.allows({ userId: admin.id, tenantId: null, role: 'ADMIN' }) ?? false;
        const generated = generatedCases(op, mine, theirs, SEED + index).map((c) => {
          if (!ownerRefused) return { c, token: opToken };
          if (c.refuseField && adminAllowed) return { c: { ...c, foreign: false }, token: admin.token };
          return { c: { ...c, refuseField: undefined, foreign: false, expectStatus: 403 }, token: opToken };
        });
        const cases: { c: Case; token: string | null }[] = [
          ...generated,
          ...transportCases(op, mine, bodyLimitBytes).map((c) => ({ c, token: opToken })),
          {
            c: {
              label: 'no token, plausible request',
              path: pathValues(op, mine),
              body: op.body ? plausible(op.body, 'body', contextFor(op, mine)) : undefined,
            },
            token: null,
          },
          { c: { label: 'signed token whose sub is not a UUID', path: pathValues(op, mine) }, token: badSubToken },
          ...orderCases(op, mine, route, { staff: staffToken, owner: token, customer: customerToken }),
        ];
        if (op.method === 'get') {
          // GET never changes data: its cases run GET_CONCURRENCY at a time, checked once per operation.
          for (let i = 0; i < cases.length; i += GET_CONCURRENCY) await Promise.all(cases.slice(i, i + GET_CONCURRENCY).map((one) => answer(op, one)));
          const after = await timedSnapshot();
          if (after !== before) failures.push({ op: name, request: 'any', status: 0, problem: `a GET changed stored data (${changedTables(before, after)})` });
          before = after;
          continue;
        }
        await answerOneByOne(op, cases);
      }

      // Then one plausible request per operation from the caller it is for, which must reach the
      // handler and get its answer (not a 404 of a missing row): the proof that the setup above gives
      // every operation what it needs. They come after the walk, reads first (a few at a time, like
      // the walk's), deletions last, so none of them takes a row from under another operation's cases.
      const control = async (op: Operation) => controlCase(op, mine, routeOf(op), { owner: await ownerToken(), admin, customer: customerToken });
      const reads = ops.filter((op) => op.method === 'get');
      for (let i = 0; i < reads.length; i += GET_CONCURRENCY) {
        const batch = reads.slice(i, i + GET_CONCURRENCY);
        await Promise.all(batch.map(async (op) => answer(op, await control(op))));
        const after = await timedSnapshot();
        if (after !== before)
          failures.push({
            op: batch.map(nameOf).join(', '),
            request: 'control',
            status: 0,
            problem: `a GET changed stored data (${changedTables(before, after)})`,
          });
        before = after;
      }
      for (const op of [...ops.filter((o) => o.method !== 'get' && o.method !== 'delete'), ...ops.filter((o) => o.method === 'delete')])
        await answerOneByOne(op, [await control(op)]);
    } finally {
      diagnostics.unsubscribe(HANDLER_START, onLayerStart);
      // the control requests activated and deactivated the fuzz's billing config: the sandbox is the active one again
      await activateSandbox();
    }

    if (process.env.FUZZ_TIMING) (await import('node:fs')).writeFileSync(process.env.FUZZ_TIMING, JSON.stringify(timing));
    const seconds = (Date.now() - started) / 1000;
    const perOperation = ops
      .map((op) => ({ op: nameOf(op), ...(reached.get(nameOf(op)) ?? { requests: 0, reached: 0 }) }))
      .sort((a, b) => a.reached - b.reached);
    const counts = perOperation.map((o) => o.reached);
    const median = counts[Math.floor(counts.length / 2)];
    console.log(
      `      contract fuzz: ${ops.length} operations, ${requests} requests, ${seconds.toFixed(1)} s (${setupSeconds.toFixed(1)} s setup, ${(snapshotMs / 1000).toFixed(1)} s in snapshots, ${(settleMs / 1000).toFixed(1)} s waiting for workflows), ${failures.length} failures`,
    );
    console.log(
      `      requests that reached the handler (not a 404), per operation: min ${counts[0]}, median ${median}, max ${counts[counts.length - 1]}; fewest: ${perOperation
        .slice(0, 5)
        .map((o) => `${o.op} ${o.reached}/${o.requests}`)
        .join(', ')}`,
    );
    if (process.env.FUZZ_REPORT) (await import('node:fs')).writeFileSync(process.env.FUZZ_REPORT, JSON.stringify({ failures, perOperation }, null, 1));
    expect(failures.slice(0, 40), `${failures.length} failures`).to.deep.equal([]);
    expect(
      perOperation.filter((o) => o.reached === 0).map((o) => o.op),
      'operations whose handler no request reached',
    ).to.deep.equal([]);
  });
});
