/**
 * The salon's booking segments over a time range, as a day's schedule draws them
 * (docs/rules/booking.md#the-days-schedule): each active segment with its booking, customer and
 * service, and the waitlist's holds. The booking module owns booking_segments.
 */
import type { Db } from '../../db/db-handle';
import { BookingSegmentModel } from '../../db/models/booking-segment.model';
import { plain } from '../../db/plain';
import type { ResourceType, SegmentKind } from '../availability/availability.types';
import type { BookingStatus } from './booking-status.rules';

export interface ScheduleSegmentRow {
  bookingId: string | null;
  waitlistRoundId: string | null;
  status: BookingStatus | null;
  /** when and how the customer promised to come (docs/rules/reminders.md#promising-to-come) */
  promisedAt: Date | null;
  promisedVia: 'LINK' | 'SMS' | 'STAFF' | null;
  /** the booking's staff member (null: unassigned), for STAFF scoping */
  bookingResourceId: string | null;
  /** every staff member of the booking's items, for STAFF scoping */
  itemResourceIds: (string | null)[] | null;
  customerId: string | null;
  customerName: string | null;
  /** the customer's phone (E.164), else the booking's contact phone */
  customerPhone: string | null;
  /** the booking's notes: what the customer wrote, or the salon added */
  notes: string | null;
  serviceId: string | null;
  serviceName: string | null;
  resourceType: ResourceType;
  resourceId: string | null;
  kind: SegmentKind;
  phaseIndex: number | null;
  startTime: Date;
  endTime: Date;
  /** the booking as a whole (null for a hold): docs/rules/front-desk.md#the-day */
  bookingStartTime: Date | null;
  bookingEndTime: Date | null;
  bookingVersion: number | null;
  bookingSource: 'PHONE' | 'ADMIN' | 'WALK_IN' | 'ONLINE' | null;
  paymentMode: string | null;
  depositStatus: string | null;
}

/** Active segments of the tenant overlapping [from, to), in time order (the GiST index of migration 140 answers the overlap). */
export async function segmentsBetween(db: Db, tenantId: string, from: Date, to: Date): Promise<ScheduleSegmentRow[]> {
  const rows = await BookingSegmentModel.query(db)
    .alias('g')
    .leftJoin('bookings as b', 'b.id', 'g.bookingId')
    .leftJoin('booking_items as bi', 'bi.id', 'g.bookingItemId')
    // The salon's own services: by id alone the planner hashed every service of the platform.
    .leftJoin('services as sv', (join) => join.on('sv.id', 'bi.serviceId').andOn('sv.tenantId', 'g.tenantId'))
    .leftJoin('customers as c', 'c.id', 'b.customerId')
    .where('g.tenantId', tenantId)
    .where('g.isActive', true)
    // Raw: the range overlap (&&) of the segment's time with the day has no builder method.
    .whereRaw(`tstzrange(g.start_time, g.end_time, '[)') && tstzrange(?::timestamptz, ?::timestamptz, '[)')`, [from.toISOString(), to.toISOString()])
    .select(
      'g.bookingId',
      'g.waitlistRoundId',
      'b.status',
      'b.promisedAt',
      'b.promisedVia',
      'b.resourceId as bookingResourceId',
      'b.customerId',
      'b.notes',
      'bi.serviceId',
      'sv.name as serviceName',
      'b.startTime as bookingStartTime',
      'b.endTime as bookingEndTime',
      'b.version as bookingVersion',
      'b.source as bookingSource',
      'b.paymentMode',
      'b.depositStatus',
    )
    .select('g.resourceType', 'g.resourceId', 'g.kind', 'g.phaseIndex', 'g.startTime', 'g.endTime')
    // Raw: the customer's name and phone fall back to the booking's contact, and the items' staff are an array.
    .select(db.raw('COALESCE(c.name, b.contact_name) AS customer_name'))
    .select(db.raw('COALESCE(c.phone, b.contact_phone) AS customer_phone'))
    .select(db.raw('(SELECT array_agg(i.resource_id) FROM booking_items i WHERE i.booking_id = b.id) AS item_resource_ids'))
    .orderBy([{ column: 'g.startTime' }, { column: 'g.endTime' }]);
  return rows.map((r) => plain(r) as unknown as ScheduleSegmentRow);
}
