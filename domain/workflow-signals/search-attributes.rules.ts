// The search attributes the platform's workflows set, by name and type
// (docs/rules/operations.md#what-the-web-ui-shows): ids, statuses and times, never personal data.
// A Temporal server refuses an attribute nobody registered, so every engine the platform starts
// registers these (devstack/official-temporal/search-attributes.ts; docker-compose.yml's
// temporal-namespace, which `npm run lint` checks against this file). Pure and erasable TypeScript:
// the workflows, the dev stack and the lint read it.

export type SearchAttributeType = 'Keyword' | 'Datetime';

export const PLATFORM_SEARCH_ATTRIBUTES = {
  /** the salon the workflow's entity belongs to: its tenant id */
  TenantId: 'Keyword',
  /** the booking's status (docs/rules/booking.md#statuses) */
  BookingStatus: 'Keyword',
  /** when the booking starts (UTC) */
  BookingStartTime: 'Datetime',
} as const satisfies Record<string, SearchAttributeType>;

export type PlatformSearchAttribute = keyof typeof PLATFORM_SEARCH_ATTRIBUTES;
