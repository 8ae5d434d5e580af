// The contract fuzz suite's view of openapi.yaml: every operation with its parameters, body schema
// and security, $refs resolved; a "plausible" value for a schema (what a well-behaved client would
// send, so one mutated field is the only thing wrong); and fast-check arbitraries of hostile values.
import fc from 'fast-check';

/* eslint-disable @typescript-eslint/no-explicit-any */
export type Schema = Record<string, any>;

export interface Param {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: Schema;
}

export interface Operation {
  method: 'get' | 'post' | 'patch' | 'put' | 'delete';
  template: string;
  params: Param[];
  body?: Schema;
  bodyRequired: boolean;
  /** needs a staff token (bearerAuth) */
  secured: boolean;
  /** needs a customer token (security customerAuth only) */
  customerOnly: boolean;
  /** needs a staff or a customer token (security bearerAuth or customerAuth) */
  staffOrCustomer: boolean;
}

const METHODS = ['get', 'post', 'patch', 'put', 'delete'] as const;

export function resolver(doc: Schema): (node: any) => any {
  const cache = new Map<string, any>();
  const lookup = (ref: string): any =>
    ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((n: any, key) => n?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  const deref = (node: any, depth = 0): any => {
    if (depth > 40 || node === null || typeof node !== 'object') return node;
    if (Array.isArray(node)) return node.map((n) => deref(n, depth + 1));
    if (typeof node.$ref === 'string') {
      if (!cache.has(node.$ref)) {
        cache.set(node.$ref, {}); // cycle guard
        cache.set(node.$ref, deref(lookup(node.$ref), depth + 1));
      }
      return cache.get(node.$ref);
    }
    const out: any = {};
    for (const [k, v] of Object.entries(node)) out[k] = deref(v, depth + 1);
    return out;
  };
  return deref;
}

export function operationsOf(doc: Schema): Operation[] {
  const deref = resolver(doc);
  const ops: Operation[] = [];
  for (const [template, rawItem] of Object.entries<any>(doc.paths ?? {})) {
    const item = deref(rawItem);
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params: Param[] = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: any) => ({
        name: p.name,
        in: p.in,
        required: Boolean(p.required),
        schema: p.schema ?? { type: 'string' },
      }));
      const security: any[] = op.security ?? doc.security ?? [];
      const secured = security.length > 0 && !security.some((r) => Object.keys(r).length === 0) && security.every((r) => 'bearerAuth' in r);
      const customerOnly = security.length > 0 && security.every((r) => 'customerAuth' in r);
      const staffOrCustomer =
        security.length > 1 &&
        !security.some((r) => Object.keys(r).length === 0) &&
        security.every((r) => 'bearerAuth' in r || 'customerAuth' in r) &&
        !secured &&
        !customerOnly;
      const json = op.requestBody?.content?.['application/json'];
      ops.push({ method, template, params, body: json?.schema, bodyRequired: Boolean(op.requestBody?.required), secured, customerOnly, staffOrCustomer });
    }
  }
  return ops;
}

/** allOf merged into one object schema (enough for request bodies). */
export function flatten(schema: Schema | undefined): Schema {
  if (!schema) return {};
  if (!schema.allOf) return schema;
  const merged: Schema = { ...schema, allOf: undefined, properties: { ...(schema.properties ?? {}) }, required: [...(schema.required ?? [])] };
  for (const part of schema.allOf.map(flatten)) {
    Object.assign(merged.properties, part.properties ?? {});
    merged.required.push(...(part.required ?? []));
    if (part.type) merged.type = part.type;
  }
  return merged;
}

export interface ValueContext {
  /** a real id of this tenant for a field or parameter name (serviceId, resourceId, ...) */
  idFor(name: string): string | undefined;
  unique(prefix: string): string;
  /** a salon-local date and a start time inside business hours, tomorrow */
  date: string;
  dateTime: string;
}

// a MIME type of the presigned upload's list and a voucher code in its shape, for the contract's patterns of them
const PATTERN_CANDIDATES = (ctx: ValueContext) => [
  '10:00',
  'NOK',
  '#112233',
  '+4791234567',
  ctx.unique('fuzz'),
  'abc',
  'any',
  'nb-NO',
  'ABC123',
  '123456',
  'application/pdf',
  'STAMP-ABCD-EFGH',
];

/** What a well-behaved client would send for this schema. */
export function plausible(rawSchema: Schema | undefined, name: string, ctx: ValueContext, depth = 0): unknown {
  const schema = flatten(rawSchema);
  if (depth > 8) return undefined;
  if (schema.default !== undefined && schema.type !== 'object' && schema.type !== 'array') return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum.find((v: unknown) => v !== null);
  const alt = schema.oneOf ?? schema.anyOf;
  if (alt && !schema.properties) return plausible(alt[0], name, ctx, depth + 1);
  const type = schema.type ?? (schema.properties ? 'object' : 'string');
  switch (type) {
    case 'string': {
      if (schema.format === 'uuid') return ctx.idFor(name) ?? ctx.idFor('id');
      if (schema.format === 'date-time') return ctx.dateTime;
      if (schema.format === 'date') return ctx.date;
      if (schema.format === 'email') return `${ctx.unique('fuzz')}@example.test`;
      if (schema.pattern) {
        const re = new RegExp(schema.pattern);
        if (/uuid|Id$/i.test(name) && ctx.idFor(name) && re.test(ctx.idFor(name)!)) return ctx.idFor(name);
        const hit = PATTERN_CANDIDATES(ctx).find((c) => re.test(c));
        if (hit) return hit;
      }
      let s = /password/i.test(name) ? 'fuzz-password-1' : 'fuzz';
      if (schema.minLength && s.length < schema.minLength) s = s.padEnd(schema.minLength, 'x');
      if (schema.maxLength && s.length > schema.maxLength) s = s.slice(0, schema.maxLength);
      return s;
    }
    case 'integer':
    case 'number': {
      let n = 1;
      if (schema.minimum !== undefined && n < schema.minimum) n = schema.minimum;
      if (schema.exclusiveMinimum !== undefined && typeof schema.exclusiveMinimum === 'number' && n <= schema.exclusiveMinimum) n = schema.exclusiveMinimum + 1;
      if (schema.maximum !== undefined && n > schema.maximum) n = schema.maximum;
      return n;
    }
    case 'boolean':
      return false;
    case 'array': {
      const count = Math.max(schema.minItems ?? 0, name === 'items' ? 1 : 0);
      return Array.from({ length: count }, () => plausible(schema.items, name.replace(/s$/, ''), ctx, depth + 1));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      const props = schema.properties ?? {};
      const wanted = new Set<string>(schema.required ?? []);
      for (const alternative of schema.anyOf ?? schema.oneOf ?? []) {
        if (alternative.required && ![...wanted].some((k) => alternative.required.includes(k))) alternative.required.forEach((k: string) => wanted.add(k));
        break;
      }
      if (wanted.size === 0 && schema.minProperties)
        Object.keys(props)
          .slice(0, schema.minProperties)
          .forEach((k) => wanted.add(k));
      for (const key of wanted) {
        const v = plausible(props[key] ?? {}, key, ctx, depth + 1);
        if (v !== undefined) out[key] = v;
      }
      return out;
    }
    default:
      return undefined;
  }
}

/** Every property path of a body schema (depth-limited; arrays at index 0) with its schema. */
export function fieldPaths(
  rawSchema: Schema | undefined,
  prefix: (string | number)[] = [],
  depth = 0,
): { path: (string | number)[]; schema: Schema; required: boolean }[] {
  const schema = flatten(rawSchema);
  if (!schema || depth > 3) return [];
  const out: { path: (string | number)[]; schema: Schema; required: boolean }[] = [];
  if (schema.type === 'array' && schema.items) {
    out.push(...fieldPaths(schema.items, [...prefix, 0], depth + 1));
    return out;
  }
  const required = new Set<string>(schema.required ?? []);
  for (const [key, sub] of Object.entries<Schema>(schema.properties ?? {})) {
    const path = [...prefix, key];
    out.push({ path, schema: flatten(sub), required: required.has(key) });
    out.push(...fieldPaths(sub, path, depth + 1));
  }
  return out;
}

export const IMPOSSIBLE_DATES = ['2027-02-30', '2026-13-01', '0000-01-01', '9999-12-31', '2026-02-29', '2026-00-10', '2026-1-1', '20260101'];
export const IMPOSSIBLE_DATE_TIMES = [
  '2027-02-30T12:00:00Z',
  '2026-13-01T10:00:00Z',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '2026-06-01T24:00:00Z',
  '2026-06-01T10:60:00Z',
  '2026-06-01T10:00:60Z',
  '2026-06-01T10:00:00+25:00',
  '+010000-01-01T00:00:00Z',
  '2026-06-01',
];
const ODD_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDC00y',
  '\uFFFF',
  '\u202E',
  "'; DROP TABLE bookings;--",
  '../../etc/passwd',
  '%00',
  '{{7*7}}',
  '<script>alert(1)</script>',
  ' ',
  '',
];

/** Strings a hostile client sends: NUL, lone surrogates, huge, impossible dates, control characters. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...ODD_STRINGS),
  fc.constantFrom(...IMPOSSIBLE_DATES, ...IMPOSSIBLE_DATE_TIMES),
  fc.string({ maxLength: 20 }).map((s) => `${s}\u0000${s}`),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.integer({ min: 1, max: 4 }).map((k) => 'x'.repeat(k * 25_000)),
);

/** A value of the wrong JSON type for the schema (never one the validator could coerce back). */
export function wrongType(schema: Schema): fc.Arbitrary<unknown> {
  const type = schema.type ?? 'object';
  const notCoercible = [{ nested: { deeper: [1, 2, 3] } }, [['a']]];
  if (type === 'string') return fc.constantFrom<unknown>(...notCoercible, ...(schema.nullable ? [] : [null]));
  if (type === 'integer' || type === 'number') {
    return fc.constantFrom<unknown>('not-a-number', 1e308, -1e308, 2 ** 63, -(2 ** 63), 1.5, 2147483648, -2147483649, ...notCoercible);
  }
  if (type === 'boolean') return fc.constantFrom<unknown>('maybe', 2, ...notCoercible);
  if (type === 'array')
    return fc.constantFrom<unknown>(
      'a,b',
      { 0: 'x' },
      5,
      [null, null],
      Array.from({ length: 5000 }, (_, i) => i),
    );
  return fc.constantFrom<unknown>('object?', 7, [], ['x']);
}

/** A hostile value for a field: odd strings, impossible dates, wrong types. */
export function hostileValue(schema: Schema): fc.Arbitrary<unknown> {
  const dates = schema.format === 'date' || /\\d\{4\}-/.test(schema.pattern ?? '') ? fc.constantFrom(...IMPOSSIBLE_DATES) : undefined;
  const dateTimes = schema.format === 'date-time' ? fc.constantFrom(...IMPOSSIBLE_DATE_TIMES) : undefined;
  return fc.oneof(...[dates, dateTimes].filter((a): a is fc.Arbitrary<string> => a !== undefined), hostileString, wrongType(schema));
}
