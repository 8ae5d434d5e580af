// History events on the wire. Events never change once written, so each is encoded once (the
// first time it is sized, sent or stored) and kept framed as an element of History.events (tag,
// length, bytes): a poll response's history is then one copy of those pieces into the response
// buffer, history_size_bytes a sum of their lengths, and a stored run their base64.
//
// The event's own fields are written here rather than by protobufjs' generated HistoryEvent
// encoder: that encoder tests all 70 fields of the message (60 of them the attributes oneof) on
// every event, and on objects of as many shapes as there are event types those are megamorphic
// lookups of absent properties, which cost more under load than encoding the attributes (profiled
// at 16 µs an event). Here only the fields an event has are visited; each nested message
// (attributes, time, metadata) is still encoded by protobufjs. The bytes are the same as
// protobufjs writes (fields in number order, zero scalars left out); anything unusual falls
// back to it.
import { encodeMessage, protoType, type ProtoType } from '../proto';

interface EncodedEvent {
  /** History.events element: tag, length, then the event's bytes. */
  framed: Buffer;
  /** Offset of the event's own bytes in `framed`. */
  start: number;
  base64?: string;
}

const EVENTS_TAG = 0x0a; // History.events = field 1, length-delimited
const HistoryEventType = protoType('temporal.api.history.v1.HistoryEvent');

type FieldKind = 'varint' | 'bool' | 'message' | 'messages';
interface FieldCodec {
  id: number;
  tag: number;
  kind: FieldKind;
  type?: ProtoType;
}

/** HistoryEvent's fields by name: how each is written. */
const fields = new Map<string, FieldCodec>();
for (const f of HistoryEventType.fieldsArray) {
  f.resolve();
  const type = f.resolvedType && 'encode' in f.resolvedType ? (f.resolvedType as ProtoType) : undefined;
  let kind: FieldKind | undefined;
  if (type) kind = f.repeated ? 'messages' : 'message';
  else if (!f.repeated && f.type === 'bool') kind = 'bool';
  else if (!f.repeated && (f.resolvedType || ['int64', 'uint64', 'int32', 'uint32'].includes(f.type))) kind = 'varint'; // enums too
  if (!kind) throw new Error(`HistoryEvent.${f.name}: field of type ${f.type} is not handled by the event encoder`);
  fields.set(f.name, { id: f.id, tag: (f.id << 3) | (kind === 'message' || kind === 'messages' ? 2 : 0), kind, type });
}

function varintLength(n: number): number {
  let len = 1;
  while (n > 0x7f) {
    n = Math.floor(n / 128);
    len++;
  }
  return len;
}
function writeVarint(buf: Buffer, offset: number, n: number): number {
  while (n > 0x7f) {
    buf[offset++] = (n & 0x7f) | 0x80;
    n = Math.floor(n / 128);
  }
  buf[offset++] = n;
  return offset;
}

/** One field ready to write: its tag and either a number or a nested message's bytes. */
interface Part {
  id: number;
  tag: number;
  value: number;
  bytes?: Buffer;
}

/**
 * The event's fields in number order, or undefined when one needs protobufjs' own handling
 * (an int64 given as a Long or string, a negative number).
 */
function eventParts(ev: Record<string, unknown>): Part[] | undefined {
  const parts: Part[] = [];
  for (const name in ev) {
    const v = ev[name];
    const f = fields.get(name);
    if (v === null || v === undefined || !f || !Object.prototype.hasOwnProperty.call(ev, name)) continue;
    switch (f.kind) {
      // Scalars without explicit presence: zero and false are not written.
      case 'varint':
        if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) return undefined;
        if (v !== 0) parts.push({ id: f.id, tag: f.tag, value: v });
        break;
      case 'bool':
        if (v !== false) parts.push({ id: f.id, tag: f.tag, value: 1 });
        break;
      case 'message':
        parts.push({ id: f.id, tag: f.tag, value: 0, bytes: encodeMessage(f.type!, v) });
        break;
      case 'messages':
        if (!Array.isArray(v)) return undefined;
        for (const item of v) parts.push({ id: f.id, tag: f.tag, value: 0, bytes: encodeMessage(f.type!, item) });
        break;
    }
  }
  // Insertion order is nearly field order already; a stable sort keeps repeated items in order.
  return parts.sort((a, b) => a.id - b.id);
}

function partLength(p: Part): number {
  return varintLength(p.tag) + (p.bytes ? varintLength(p.bytes.length) + p.bytes.length : varintLength(p.value));
}

/** Tag, length and the event's bytes, in one buffer. */
function frame(ev: object): { framed: Buffer; start: number } {
  const parts = eventParts(ev as Record<string, unknown>);
  if (!parts) {
    const bytes = encodeMessage(HistoryEventType, ev);
    const start = 1 + varintLength(bytes.length);
    const framed = Buffer.allocUnsafe(start + bytes.length);
    framed[0] = EVENTS_TAG;
    writeVarint(framed, 1, bytes.length);
    bytes.copy(framed, start);
    return { framed, start };
  }
  let size = 0;
  for (const p of parts) size += partLength(p);
  const start = 1 + varintLength(size);
  const framed = Buffer.allocUnsafe(start + size);
  framed[0] = EVENTS_TAG;
  let offset = writeVarint(framed, 1, size);
  for (const p of parts) {
    offset = writeVarint(framed, offset, p.tag);
    if (p.bytes) {
      offset = writeVarint(framed, offset, p.bytes.length);
      offset += p.bytes.copy(framed, offset);
    } else {
      offset = writeVarint(framed, offset, p.value);
    }
  }
  return { framed, start };
}

const encodedEvents = new WeakMap<object, EncodedEvent>();

function encoded(ev: object): EncodedEvent {
  let e = encodedEvents.get(ev);
  if (!e) {
    e = frame(ev);
    encodedEvents.set(ev, e);
  }
  return e;
}

/** The event's protobuf encoding (computed once per event). */
export function encodedEvent(ev: object): Buffer {
  const e = encoded(ev);
  return e.framed.subarray(e.start);
}

/** Encoded size of an event, as counted in history_size_bytes. */
export function encodedEventSize(ev: object): number {
  const e = encoded(ev);
  return e.framed.length - e.start;
}

/** The event's encoding in base64 (how stored runs keep their history), computed once per event. */
export function encodedEventBase64(ev: object): string {
  const e = encoded(ev);
  e.base64 ??= e.framed.toString('base64', e.start);
  return e.base64;
}

/**
 * `head` (an encoded message without its history) followed by `history: {events}` as field
 * `fieldNumber`, written into one buffer. Fields may appear in any order on the wire.
 */
export function appendHistoryField(head: Buffer, fieldNumber: number, events: object[]): Buffer {
  const pieces = events.map((ev) => encoded(ev).framed);
  let body = 0;
  for (const p of pieces) body += p.length;
  const tag = (fieldNumber << 3) | 2;
  const out = Buffer.allocUnsafe(head.length + varintLength(tag) + varintLength(body) + body);
  let offset = head.copy(out, 0);
  offset = writeVarint(out, offset, tag);
  offset = writeVarint(out, offset, body);
  for (const p of pieces) offset += p.copy(out, offset);
  return out;
}
