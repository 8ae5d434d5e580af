// The keys of the platform's search attributes (domain/workflow-signals/search-attributes.rules.ts,
// which every engine the platform starts registers), for upsertSearchAttributes in the workflows.
// A key is its name and type (what the SDK's defineSearchAttributeKey returns, written out here: the
// workflows import the workflow SDK only).
import type { PlatformSearchAttribute } from '../../domain/workflow-signals/search-attributes.rules';

const key = <T extends 'KEYWORD' | 'DATETIME'>(name: PlatformSearchAttribute, type: T) => ({ name, type }) as const;

export const TenantId = key('TenantId', 'KEYWORD');
export const BookingStatus = key('BookingStatus', 'KEYWORD');
export const BookingStartTime = key('BookingStartTime', 'DATETIME');
