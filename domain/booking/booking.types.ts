/**
 * Shared types of the booking services: their dependencies, the acting principal, request inputs
 * and the database row shapes (knexSnakeCaseMappers: camelCase here, snake_case in Postgres).
 */
import type { Language } from '../language/language.rules';
import type { Db } from '../../db/db-handle';
import type { Clock } from '../time/clock';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import type { ActorRole, BookingStatus } from './booking-status.rules';
import type { BookingHooks } from './booking-hooks';
import type { LinkKey } from '../crypto/link-key';
import type { ResourceType, SegmentKind } from '../availability/availability.types';

export type BookingSource = 'PHONE' | 'ADMIN' | 'WALK_IN' | 'ONLINE';

export interface BookingDeps {
  knex: Db;
  signaller: EntitySignaller;
  /** the key of the manage links' tokens (docs/rules/security.md#keys) */
  manageLinkKey: LinkKey;
  /** the clock of the booking services (nowOf(deps)); unset: the system clock */
  now?: Clock;
  /** what a change tells payments, loyalty and the waitlist, in its transaction (booking-hooks.ts) */
  bookingHooks: BookingHooks;
}

export interface Actor {
  userId: string | null;
  role: ActorRole;
  /** STAFF (and OWNER) with a linked resource */
  resourceId: string | null;
}

/** A guest on the public portal. */
export const GUEST_ACTOR: Actor = { userId: null, role: 'CUSTOMER', resourceId: null };

export interface ItemInput {
  serviceId: string;
  resourceId?: string | null;
  /** ISO; defaults to the booking start for item 0, else the previous item's end */
  startTime?: string;
}

export interface ContactInput {
  name: string;
  phone: string;
  email?: string | null;
  notes?: string | null;
}

/** Booking columns that read the same in the row and in the DTO. */
export interface BookingFields {
  id: string;
  tenantId: string;
  customerId: string | null;
  resourceId: string | null;
  status: BookingStatus;
  source: BookingSource;
  paymentMode: string;
  totalAmount: number;
  discountAmount: number;
  appliedVoucherId: string | null;
  cancellationFee: number;
  depositStatus: string | null;
  processedForLoyalty: boolean;
  metadata: { displaySnapshot: { timezone: string; currency: string; locale: string } } & Record<string, unknown>;
  isGuest: boolean;
  notes: string | null;
  version: number;
  cancelReason: string | null;
  cancelledBy: string | null;
  createdBy: string | null;
}

export interface BookingRow extends BookingFields {
  startTime: Date;
  endTime: Date;
  contactName: string | null;
  contactPhone: string | null;
  contactEmail: string | null;
  cancelledAt: Date | null;
  /** the SHA-256 of the manage link's token (manage-link.service.ts); null: no manage link (the salon made it) */
  manageTokenHash: string | null;
  allowDoubleBooking: boolean;
  /** the signed-in customer's account (a booking made signed in, or claimed) */
  customerAccountId: string | null;
  /** the language the booking was made in: every message about it is written in it (docs/rules/messages.md#language) */
  language: Language;
  /** its calendar event's SEQUENCE, raised by the changes its messages announce (docs/rules/booking-page.md#calendar-files) */
  calendarSequence: number;
  /** when and how the customer promised to come (docs/rules/reminders.md#promising-to-come) */
  promisedAt: Date | null;
  promisedVia: 'LINK' | 'SMS' | 'STAFF' | null;
  /** when the salon was told the customer has not promised to come (docs/rules/reminders.md#bookings-without-a-promise) */
  unpromisedFlaggedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** its customer's record was erased (the database keeps it in step: docs/rules/personal-data.md#erasure-racing-a-booking); unset on a new row */
  customerErased?: boolean;
  /** kept for the accounts without its customer's identity since (docs/rules/personal-data.md#what-is-kept-for-the-accounts) */
  identityRemovedAt?: Date | null;
}

/** Booking item fields shared by the row and the DTO. */
export interface BookingItemFields {
  id: string;
  serviceId: string;
  serviceName: string;
  resourceId: string | null;
  duration: number;
  price: number;
}

export interface ItemRow extends BookingItemFields {
  bookingId: string;
  /** the customer-visible start and end: the first phase's start, the last phase's end */
  startTime: Date;
  endTime: Date;
  sortOrder: number;
  /** the time the item holds, part by part (docs/rules/booking.md#the-parts-of-a-booking), in time order */
  segments: SegmentRow[];
}

/** One part of an item's time on one resource: a booking_segments row as the booking module reads it. */
export interface SegmentRow {
  bookingItemId: string;
  kind: SegmentKind;
  /** the service's phase, 0-based; null for a buffer */
  phaseIndex: number | null;
  resourceType: ResourceType;
  /** null: the unassigned item's staff member */
  resourceId: string | null;
  startTime: Date;
  endTime: Date;
}
