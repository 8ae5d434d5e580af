// Turns the server's plain protobuf objects (enums and int64 as numbers, bytes as Buffers) into a
// tree for people: walked by the message's descriptor, so enum numbers get their names, times and
// durations read as such, and payloads are decoded (JSON shown as JSON, anything else as bytes).
import type { Enum, Field, Type } from 'protobufjs';
import { protoType, timestampMs } from '../proto';

export type Display =
  | { kind: 'text'; text: string }
  | { kind: 'payload'; encoding: string; json?: { value: unknown }; bytes?: Uint8Array; meta: [string, string][] }
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'list'; items: Display[] }
  | { kind: 'fields'; fields: [string, Display][] };

const PAYLOAD = '.temporal.api.common.v1.Payload';
const PAYLOADS = '.temporal.api.common.v1.Payloads';
const TIMESTAMP = '.google.protobuf.Timestamp';
const DURATION = '.google.protobuf.Duration';

function bytesOf(v: unknown): Uint8Array | undefined {
  if (v instanceof Uint8Array) return v;
  if (typeof v === 'string') return Buffer.from(v, 'base64');
  return undefined;
}

/** A Temporal payload: JSON encodings decoded, binary ones (and undecodable JSON) kept as bytes. */
export function displayPayload(p: { metadata?: Record<string, unknown>; data?: unknown } | undefined): Display {
  const meta: [string, string][] = [];
  let encoding = '';
  for (const [k, v] of Object.entries(p?.metadata ?? {})) {
    const b = bytesOf(v);
    const text = b ? Buffer.from(b).toString('utf8') : String(v);
    if (k === 'encoding') encoding = text;
    else meta.push([k, text]);
  }
  const data = bytesOf(p?.data) ?? new Uint8Array();
  if (encoding === 'binary/null') return { kind: 'payload', encoding, json: { value: null }, meta };
  if (encoding === 'json/plain' || encoding === 'json/protobuf') {
    try {
      return { kind: 'payload', encoding, json: { value: JSON.parse(Buffer.from(data).toString('utf8')) }, meta };
    } catch {
      // Not valid JSON after all: show the bytes.
    }
  }
  return { kind: 'payload', encoding: encoding || '(no encoding)', bytes: data, meta };
}

const enumPrefixes = new WeakMap<Enum, string>();
function enumName(e: Enum, n: unknown): string {
  const name = typeof n === 'number' ? e.valuesById[n] : typeof n === 'string' ? n : undefined;
  if (name === undefined) return String(n);
  let prefix = enumPrefixes.get(e);
  if (prefix === undefined) {
    const names = Object.keys(e.values);
    prefix = names.reduce((p, x) => {
      while (!x.startsWith(p)) p = p.slice(0, p.lastIndexOf('_', p.length - 2) + 1);
      return p;
    }, names[0] ?? '');
    if (!prefix.endsWith('_')) prefix = '';
    enumPrefixes.set(e, prefix);
  }
  return name.slice(prefix.length) || name;
}

function durationText(v: { seconds?: number; nanos?: number }): string {
  const ms = timestampMs(v) ?? 0;
  return `${Number((ms / 1000).toFixed(3))}s`;
}

function isEmpty(d: Display): boolean {
  return (d.kind === 'fields' && d.fields.length === 0) || (d.kind === 'list' && d.items.length === 0);
}

function displayField(field: Field, value: unknown): Display | undefined {
  const resolved = field.resolve().resolvedType;
  const one = (v: unknown): Display | undefined => {
    if (v === undefined || v === null) return undefined;
    if (resolved && 'values' in resolved) return { kind: 'text', text: enumName(resolved as Enum, v) };
    if (resolved) return displayMessage(resolved as Type, v);
    if (field.type === 'bytes') return { kind: 'bytes', bytes: bytesOf(v) ?? new Uint8Array() };
    return { kind: 'text', text: String(v) };
  };
  if (field.map) {
    const fields: [string, Display][] = [];
    for (const [k, v] of Object.entries((value ?? {}) as Record<string, unknown>)) {
      const d = one(v);
      if (d) fields.push([k, d]);
    }
    return { kind: 'fields', fields };
  }
  if (field.repeated) {
    const items = ((value ?? []) as unknown[]).map(one).filter((d): d is Display => !!d);
    return { kind: 'list', items };
  }
  return one(value);
}

/** `value` as a display tree, walked by the message type `type` (a Type or its full name). */
export function displayMessage(type: Type | string, value: unknown): Display | undefined {
  const t = typeof type === 'string' ? protoType(type) : type;
  if (value === undefined || value === null) return undefined;
  const obj = value as Record<string, unknown>;
  switch (t.fullName) {
    case PAYLOAD:
      return displayPayload(obj);
    case PAYLOADS:
      return { kind: 'list', items: ((obj.payloads ?? []) as Record<string, unknown>[]).map(displayPayload) };
    case TIMESTAMP:
      return { kind: 'text', text: new Date(timestampMs(obj as { seconds: number }) ?? 0).toISOString() };
    case DURATION:
      return { kind: 'text', text: durationText(obj as { seconds: number }) };
  }
  const fields: [string, Display][] = [];
  for (const field of t.fieldsArray) {
    const v = obj[field.name];
    if (v === undefined || v === null || v === '') continue;
    const d = displayField(field, v);
    if (d && !isEmpty(d)) fields.push([field.name, d]);
  }
  return { kind: 'fields', fields };
}
