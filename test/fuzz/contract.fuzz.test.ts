// Contract fuzz suite (issue 10; docs/design.md#testing): walks EVERY operation of openapi.yaml, so a new
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
// FUZZ_REPORT=<file> writes every failure there; FUZZ_TIMING=1 prints the slowest requests.
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { expect } from 'chai';
import fc from 'fast-check';
import type http from 'node:http';
import request, { type Response } from 'supertest';
import { loadOpenApi } from '../../api/openapi';
import { signAccessToken } from '../../domain/auth/tokens';
import { stack } from '../support/stack';
import { createAdmin, createUser, tokenFor, unique } from '../support/factories';
import { areaRouters } from '../../api/routes';
import { routeTable, type AppRoute } from '../../api/middleware/route-lookup';
import { signInCustomer } from '../support/customers';
import { at, bookingSalon, knex, localDay, type BookingSalon } from '../support/booking-fixtures';
import { IMPOSSIBLE_DATES, IMPOSSIBLE_DATE_TIMES, fieldPaths, hostileString, hostileValue, operationsOf, plausible, type Operation, type Param, type Schema, type ValueContext } from './contract-model';

const SEED = 20261122;
/** generated cases per operation (authenticated); fixed transport and auth cases come on top */
const CASES_PER_OPERATION = 7;
const GET_CONCURRENCY = 4;

type Ids = Record<string, string>;

interface Salon {
  salon: BookingSalon;
  ids: Ids;
}

interface Failure {
  op: string;
  request: string;
  status: number;
  problem: string;
}

/** The kind of id a `{id}` path parameter names, from the segment before it. */
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
};

function idKindOf(template: string, param: string): string {
  if (param !== 'id') return param;
  const segments = template.split('/');
  const at = segments.indexOf('{id}');
  return ID_KIND[segments[at - 1]] ?? 'id';
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

function pathValues(op: Operation, salon: Salon): Record<string, string> {
  const values: Record<string, string> = {};
  for (const p of op.params.filter((x) => x.in === 'path')) {
    if (p.name === 'slug') values.slug = salon.salon.tenant.slug;
    else if (Array.isArray(p.schema.enum)) values[p.name] = String(p.schema.enum[0]);
    else values[p.name] = salon.ids[idKindOf(op.template, p.name)] ?? crypto.randomUUID();
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
        if (ch.length === 1 && u >= 0xd800 && u <= 0xdfff) return [0xed, 0xa0 | ((u >> 6) & 0x1f), 0x80 | (u & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
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
  for (const key of path.slice(0, -1)) {
    if (node[key] === null || typeof node[key] !== 'object') node[key] = typeof key === 'number' ? [] : {};
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
  const options: fc.Arbitrary<Mutation>[] = [fc.record({ kind: fc.constant('unknownQuery' as const), value: hostileString.map(asQueryValue) })];
  if (op.body) {
    options.push(fc.record({ kind: fc.constant('unknown' as const), key: fc.constantFrom('isAdmin', 'tenantId', '__proto__', 'constructor', 'x\u0000', '') }));
    options.push(fc.record({ kind: fc.constant('wholeBody' as const), value: fc.constantFrom<unknown>(null, [], 'text', 42, true, [{}], { a: { b: { c: { d: { e: {} } } } } }) }));
  }
  if (fields.length) {
    options.push(
      fc.integer({ min: 0, max: fields.length - 1 }).chain((index) => fc.record({ kind: fc.constant('field' as const), index: fc.constant(index), value: hostileValue(fields[index].schema) })),
      fc.integer({ min: 0, max: fields.length - 1 }).chain((index) => fc.record({ kind: fc.constant('field' as const), index: fc.constant(index), value: hostileValue(fields[index].schema) })),
    );
  }
  if (required.length) options.push(fc.record({ kind: fc.constant('missing' as const), index: fc.integer({ min: 0, max: fields.length - 1 }).filter((i) => fields[i].required) }));
  if (uuidFields.length) options.push(fc.record({ kind: fc.constant('foreignField' as const), index: fc.integer({ min: 0, max: fields.length - 1 }).filter((i) => fields[i].schema.format === 'uuid') }));
  if (query.length) {
    options.push(
      fc.integer({ min: 0, max: query.length - 1 }).chain((index) =>
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
      fc.record({ kind: fc.constant('path' as const), index: fc.integer({ min: 0, max: path.length - 1 }), bad: badIds }).map(({ index, bad }) => ({ kind: 'path' as const, index, value: bad.value, raw: bad.raw })),
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
        return { label: `body.${name} = ${preview(m.value)}`, path: basePath, query: baseQuery, body: setPath(baseBody, field.path, m.value), refuseField: mustRefuse(field.schema, m.value) ? name : undefined };
      }
      case 'missing':
        return { label: `body.${fields[m.index].path.join('.')} missing`, path: basePath, query: baseQuery, body: setPath(baseBody, fields[m.index].path, undefined, true) };
      case 'unknown':
        return { label: `unknown body field ${JSON.stringify(m.key)}`, path: basePath, body: m.key === '__proto__' ? JSON.parse(`${JSON.stringify(baseBody ?? {}).slice(0, -1)}${Object.keys((baseBody as object) ?? {}).length ? ',' : ''}"__proto__":{"isAdmin":true}}`) : { ...(baseBody as object), [m.key]: 'x' } };
      case 'wholeBody':
        return { label: `body = ${preview(m.value)}`, path: basePath, query: baseQuery, body: m.value };
      case 'query': {
        const param = query[m.index];
        return { label: `?${param.name}=${preview(m.value)}`, path: basePath, body: baseBody, query: { ...baseQuery, [param.name]: m.value }, refuseField: mustRefuse(param.schema, m.value) ? param.name : undefined };
      }
      case 'unknownQuery':
        return { label: `?unknownParam=${preview(m.value)}`, path: basePath, body: baseBody, query: { ...baseQuery, unknownParam: m.value } };
      case 'path': {
        const p: Param = pathParams[m.index];
        return { label: `path ${p.name} = ${preview(m.value)}`, path: { ...basePath, [p.name]: m.value }, rawPath: m.raw ? { [p.name]: m.value } : {}, body: baseBody };
      }
      case 'foreignPath': {
        const p: Param = pathParams[m.index];
        // a slug is public (the portal is reached by it); ids of another tenant must never answer 2xx
        return { label: `path ${p.name} = other tenant's`, path: { ...basePath, [p.name]: theirPath[p.name] }, body: baseBody, foreign: p.name !== 'status' && p.name !== 'slug' };
      }
      case 'foreignField': {
        const field = fields[m.index];
        const key = String(field.path[field.path.length - 1]);
        const foreignId = theirCtx.idFor(key);
        return { label: `body.${field.path.join('.')} = other tenant's`, path: basePath, body: setPath(baseBody, field.path, foreignId ?? crypto.randomUUID()), foreign: foreignId !== undefined };
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
      { label: 'gzip body with a NUL inside', path, raw: { payload: zlib.gzipSync('{"name":"a\\u0000b","notes":"a\\u0000b"}'), headers: { ...json, 'content-encoding': 'gzip' } } },
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
    if (shouted !== url) out.push({ c: { label: `order: no token, invalid input, path ${shouted.split('?')[0]}`, ...invalid, rawUrl: shouted, expectStatus: 401 }, token: null });
  }
  if (op.customerOnly) out.push({ c: { label: 'order: a staff token on a customer route, invalid input', ...invalid, expectStatus: 401 }, token: tokens.owner });
  if (route?.guard) {
    for (const [role, token] of [['STAFF', tokens.staff], ['OWNER', tokens.owner]] as const) {
      const allowed = route.guard.allows({ userId: mine.salon.owner.id, tenantId: mine.salon.tenant.id, role });
      // an invalid body or query is 400; a multipart route sent no multipart body is 415
      out.push({ c: { label: `order: ${role} ${allowed ? 'may call it' : 'is refused'}, invalid input`, ...invalid, expectStatus: allowed ? [400, 415] : 403 }, token });
    }
  } else if (op.customerOnly) {
    out.push({ c: { label: 'order: the customer, invalid input', ...invalid, expectStatus: 400 }, token: tokens.customer });
  }
  return out;
}

function preview(value: unknown): string {
  const s = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return s.length > 40 ? `${s.slice(0, 37)}...(${s.length})` : s;
}

// One listening server for the whole walk (supertest on the bare app would listen anew per request).
let server: http.Server | undefined;

async function send(op: Operation, c: Case, token: string | null): Promise<Response> {
  server ??= (await stack()).app.listen(0, '127.0.0.1');
  let req = request(server)[op.method](c.rawUrl ?? urlOf(op, c.path ?? {}, c.query, c.rawPath));
  if (token) req = req.set('Authorization', `Bearer ${token}`);
  if (c.raw) {
    for (const [k, v] of Object.entries(c.raw.headers)) req = req.set(k, v);
    // as-is: superagent would JSON-encode a Buffer sent with a JSON content type
    return req.serialize((raw: unknown) => raw as string).send(c.raw.payload as string);
  }
  if (c.body !== undefined && op.method !== 'get' && op.method !== 'delete') {
    return req.set('content-type', 'application/json').send(JSON.stringify(c.body));
  }
  return req;
}

/** Row count and checksum of every row of the two tenants, in every table that has `tenant_id`. */
async function snapshotter(tenantIds: string[]): Promise<() => Promise<string>> {
  const db = await knex();
  const tables: string[] = (
    await db('information_schema.columns').where({ tableSchema: 'public', columnName: 'tenant_id' }).select('tableName')
  ).map((r: { tableName: string }) => r.tableName);
  const parts = tables.map((t) => `SELECT '${t}' AS t, count(*)::int AS n, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS h FROM "${t}" x WHERE tenant_id = ANY(?::uuid[])`);
  parts.push(`SELECT 'tenants' AS t, count(*)::int AS n, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS h FROM tenants x WHERE id = ANY(?::uuid[])`);
  const sql = parts.join(' UNION ALL ');
  const bindings = parts.map(() => tenantIds);
  return async () => {
    const { rows } = await db.raw(sql, bindings);
    return (rows as { t: string; n: number; h: string }[]).map((r) => `${r.t}:${r.n}:${r.h}`).join(';');
  };
}

/** Real rows in a salon so that path ids reach the handlers: created through the API itself. */
async function populate(salon: BookingSalon, ops: Operation[]): Promise<Salon> {
  const db = await knex();
  const ids: Ids = {
    tenantId: salon.tenant.id,
    serviceId: salon.serviceId,
    resourceId: salon.staff[0].resourceId,
  };
  const me: Salon = { salon, ids };
  const create = async (template: string, idName: string) => {
    const op = ops.find((o) => o.method === 'post' && o.template === template);
    if (!op) return;
    const body = plausible(op.body, 'body', contextFor(op, me));
    const res = await send(op, { label: 'setup', path: pathValues(op, me), body }, salon.owner.token);
    if (res.status === 201 || res.status === 200) ids[idName] = res.body.data.id;
  };
  await create('/service-categories', 'categoryId');
  await create('/taxes', 'taxId');
  await create('/accounting-accounts', 'accountId');
  await create('/customers', 'customerId');
  await create('/resources/{id}/schedule-overrides', 'overrideId');
  await create('/resources/{id}/time-offs', 'timeOffId');
  await create('/bookings', 'bookingId');
  const schedule = await db('resource_schedules').where({ resourceId: ids.resourceId }).first('id');
  if (schedule) ids.scheduleId = schedule.id;
  const tenantCustomer = await db('tenant_customers').where({ tenantId: salon.tenant.id }).first('id');
  if (tenantCustomer) ids.tenantCustomerId = tenantCustomer.id;
  return me;
}

function checkAnswer(res: Response, failures: Failure[], where: { op: string; request: string }, c: Case): void {
  const fail = (problem: string) => failures.push({ ...where, status: res.status, problem });
  if (res.status >= 500) fail(`5xx: ${JSON.stringify(res.body).slice(0, 300)}`);
  if (c.foreign && res.status < 300) fail("another tenant's id got a 2xx");
  if (c.expectStatus !== undefined && ![c.expectStatus].flat().includes(res.status)) fail(`expected ${c.expectStatus} (token, then role, then validation): ${JSON.stringify(res.body?.error ?? res.body).slice(0, 200)}`);
  if (c.refuseField) {
    const details = (res.body?.error?.details ?? []) as { field?: string }[];
    if (res.status !== 400 || res.body?.error?.code !== 'VALIDATION_ERROR') fail(`not refused with 400 VALIDATION_ERROR (${res.body?.error?.code})`);
    else if (!details.some((d) => d.field === c.refuseField)) fail(`details do not name ${c.refuseField}: ${JSON.stringify(details).slice(0, 200)}`);
  }
  if (res.status >= 400) {
    const body = res.body as { success?: unknown; error?: { code?: unknown; message?: unknown } };
    if (body?.success !== false || typeof body.error?.code !== 'string' || typeof body.error?.message !== 'string') fail(`no error envelope: ${res.text.slice(0, 200)}`);
    else if (!/^[A-Z][A-Z0-9_]+$/.test(body.error.code) || ['INTERNAL_ERROR', 'ERROR', 'FAILED', 'INVALID'].includes(body.error.code)) fail(`unspecific code ${body.error.code}`);
  }
}

describe('contract fuzz: every openapi.yaml operation with generated bad input', function () {
  this.timeout(600_000);

  it('when hostile clients call every operation then no 5xx, always the envelope with a specific code, and refused requests change nothing', async () => {
    const { config } = await stack();
    const started = Date.now();
    const ops = operationsOf(loadOpenApi() as Schema);
    expect(ops.length).to.be.greaterThan(80);
    const mine = await populate(await bookingSalon(), ops);
    const theirs = await populate(await bookingSalon(), ops);
    const snapshot = await snapshotter([mine.salon.tenant.id, theirs.salon.tenant.id]);
    const bodyLimitBytes = /^(\d+)\s*kb$/i.test(config.bodyLimit) ? Number(/^(\d+)/.exec(config.bodyLimit)![1]) * 1024 : /^(\d+)\s*mb$/i.test(config.bodyLimit) ? Number(/^(\d+)/.exec(config.bodyLimit)![1]) * 1024 * 1024 : 1024 * 1024;
    const customerToken = (await signInCustomer()).accessToken;
    const staffToken = (await createUser(mine.salon.tenant.id, 'STAFF')).token;
    const admin = await createAdmin();
    const routes = routeTable(areaRouters((await stack()).platform.deps));
    const routeOf = (op: Operation) => {
      const url = urlOf(op, pathValues(op, mine));
      return routes.find((r) => r.method === op.method.toUpperCase() && r.pattern.test(url));
    };
    const badSubToken = signAccessToken({ secret: config.keys.accessToken, accessTtlSeconds: 600 }, { sub: 'not-a-uuid', tenantId: mine.salon.tenant.id, role: 'OWNER', tv: 0, sid: crypto.randomUUID() });
    const failures: Failure[] = [];
    let requests = 0;
    let snapshotMs = 0;
    const timing: [number, string][] = [];
    const timedSnapshot = async () => {
      const t0 = Date.now();
      const v = await snapshot();
      snapshotMs += Date.now() - t0;
      return v;
    };
    let before = await snapshot();

    for (const [index, op] of ops.entries()) {
      const name = `${op.method.toUpperCase()} ${op.template}`;
      // A refused request may never log the owner out, but an accepted one may (logout, password): re-sign.
      const owner = await (await knex())('users').where({ id: mine.salon.owner.id }).first('tokenVersion');
      const token = await tokenFor({ id: mine.salon.owner.id, tenantId: mine.salon.tenant.id, role: 'OWNER', tokenVersion: owner.tokenVersion });
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
        { c: { label: 'no token, plausible request', path: pathValues(op, mine), body: op.body ? plausible(op.body, 'body', contextFor(op, mine)) : undefined }, token: null },
        { c: { label: 'signed token whose sub is not a UUID', path: pathValues(op, mine) }, token: badSubToken },
        ...orderCases(op, mine, route, { staff: staffToken, owner: token, customer: customerToken }),
      ];
      const answer = async ({ c, token: t }: { c: Case; token: string | null }) => {
        const t0 = Date.now();
        const res = await send(op, c, t);
        if (process.env.FUZZ_TIMING) timing.push([Date.now() - t0, `${name} ${c.label}`]);
        requests++;
        const where = { op: name, request: c.label };
        checkAnswer(res, failures, where, c);
        if ((op.secured || op.customerOnly) && t === null && res.status !== 401) failures.push({ ...where, status: res.status, problem: 'secured operation without a token is not 401' });
        if (op.secured && t === badSubToken && (res.status !== 401 || res.body?.error?.code !== 'UNAUTHORIZED')) failures.push({ ...where, status: res.status, problem: 'token with a non-UUID sub is not 401 UNAUTHORIZED' });
        return res;
      };
      if (op.method === 'get') {
        // GET never changes data: its cases run GET_CONCURRENCY at a time, checked once per operation.
        for (let i = 0; i < cases.length; i += GET_CONCURRENCY) await Promise.all(cases.slice(i, i + GET_CONCURRENCY).map(answer));
        const after = await timedSnapshot();
        if (after !== before) failures.push({ op: name, request: 'any', status: 0, problem: 'a GET changed stored data' });
        before = after;
        continue;
      }
      // Writes one at a time, with a snapshot after each: a refused one must have changed nothing.
      for (const one of cases) {
        const res = await answer(one);
        const after = await timedSnapshot();
        if (res.status >= 400 && after !== before) failures.push({ op: name, request: one.c.label, status: res.status, problem: 'a refused request changed stored data' });
        before = after;
      }
    }

    if (process.env.FUZZ_TIMING) console.log(timing.sort((a, b) => b[0] - a[0]).slice(0, 25), timing.reduce((a, b) => a + b[0], 0));
    server?.close();
    server = undefined;
    const seconds = (Date.now() - started) / 1000;
    console.log(`      contract fuzz: ${ops.length} operations, ${requests} requests, ${seconds.toFixed(1)} s (${(snapshotMs / 1000).toFixed(1)} s in snapshots), ${failures.length} failures`);
    if (process.env.FUZZ_REPORT) (await import('node:fs')).writeFileSync(process.env.FUZZ_REPORT, JSON.stringify(failures, null, 1));
    expect(failures.slice(0, 40), `${failures.length} failures`).to.deep.equal([]);
  });
});
