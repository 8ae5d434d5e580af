// The search attributes the server knows and their types. The SDK encodes a typed search
// attribute with a `type` metadata entry ("Datetime", "Int", ...) and decodes it only when that
// entry is there; the real server stores the registered type and puts it on every payload it
// returns, so legacy (untyped) values come back typed too. This registry does the same: values
// of registered attributes are stamped with their type when they enter the server.
import type { Payload, SearchAttributes } from '../messages';
import { IndexedValueType, payloadToJson } from '../proto';

/** Attributes the real dev server has without registration (system ones and the CLI's custom ones). */
const PREDEFINED: Record<string, string> = {
  BinaryChecksums: 'KeywordList',
  BuildIds: 'KeywordList',
  TemporalChangeVersion: 'KeywordList',
  TemporalScheduledById: 'Keyword',
  TemporalScheduledStartTime: 'Datetime',
  CustomKeywordField: 'Keyword',
  CustomStringField: 'Text',
  CustomTextField: 'Text',
  CustomIntField: 'Int',
  CustomDatetimeField: 'Datetime',
  CustomDoubleField: 'Double',
  CustomBoolField: 'Bool',
};

/** Metadata names of IndexedValueType (the SDK's TypedSearchAttributes.toMetadataType). */
export function metadataTypeName(type: number): string | undefined {
  const name = IndexedValueType.name(type);
  if (!name) return undefined;
  // KEYWORD_LIST -> KeywordList
  return name.toLowerCase().replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase());
}

export class SearchAttributeTypes {
  /** `custom`: attributes registered by launcher flags or OperatorService -> IndexedValueType. */
  constructor(readonly custom: Map<string, number>) {}

  /** Every known attribute and its IndexedValueType (GetSearchAttributes, ListSearchAttributes). */
  all(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const name of Object.keys(PREDEFINED)) out[name] = this.typeOf(name)!;
    for (const [name, type] of this.custom) out[name] = type;
    return out;
  }

  typeOf(name: string): number | undefined {
    const custom = this.custom.get(name);
    if (custom !== undefined) return custom;
    const predefined = PREDEFINED[name];
    return predefined ? IndexedValueType.v(predefined.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()) : undefined;
  }

  /** A copy of `p` carrying its attribute's registered type, unless it clears the attribute. */
  private stamp(name: string, p: Payload): Payload {
    if (p.metadata?.type) return p;
    const type = this.typeOf(name);
    const typeName = type === undefined ? undefined : metadataTypeName(type);
    // A null value removes the attribute; the SDK sends it without a type, and so does the server.
    if (!typeName || payloadToJson(p) === null) return p;
    return { ...p, metadata: { ...p.metadata, type: Buffer.from(typeName) } };
  }

  /** Search attributes with every registered value stamped with its type. */
  typed(sa: SearchAttributes | undefined): SearchAttributes | undefined {
    if (!sa?.indexedFields) return sa;
    const indexedFields: Record<string, Payload> = {};
    for (const [k, v] of Object.entries(sa.indexedFields)) indexedFields[k] = this.stamp(k, v);
    return { ...sa, indexedFields };
  }
}
