/**
 * Who a message about a booking is from, what it names and who it goes to (docs/rules/messages.md),
 * read in one named statement: the worker sends it for every message it delivers, the SMS reply
 * for its answer.
 */
import type { Db } from '../../db/db-handle';
import { runNamedStatement } from '../../db/named-statement';

export interface BookingMessageParties {
  /** the salon as its messages name and link it */
  salon: { name: string; slug: string; address: unknown; timezone: string; contactPhone: string | null; contactEmail: string | null };
  /** the booking's services and their staff by name, in item order */
  items: { serviceName: string; resourceName: string | null }[];
  /** the booking's customer record, when it has one */
  customer: { name: string; phone: string | null; email: string | null } | null;
}

// Sent for every message the worker delivers: a named statement (db/named-statement.ts), not
// objection's query path (docs/performance.md).
const MESSAGE_PARTIES = `SELECT bi.id AS "itemId", s.name AS "serviceName", r.name AS "resourceName",
    t.name AS "salonName", t.slug AS "salonSlug", t.address AS "salonAddress", t.settings->>'timezone' AS "salonTimezone",
    t.contact_phone AS "salonPhone", t.contact_email AS "salonEmail",
    c.id AS "customerId", c.name AS "customerName", c.phone AS "customerPhone", c.email AS "customerEmail"
  FROM tenants t
  LEFT JOIN booking_items bi ON bi.booking_id = ?
  LEFT JOIN services s ON s.id = bi.service_id
  LEFT JOIN resources r ON r.id = bi.resource_id
  LEFT JOIN customers c ON c.id = ? AND c.tenant_id = t.id
  WHERE t.id = ?
  ORDER BY bi.sort_order`;

/** Who sends a message about the booking, what it names (services and staff) and who it goes to, in one query. */
export async function messagePartiesOf(db: Db, booking: { id: string; tenantId: string; customerId: string | null }): Promise<BookingMessageParties> {
  const rows = await runNamedStatement<{
    itemId: string | null;
    serviceName: string;
    resourceName: string | null;
    salonName: string;
    salonSlug: string;
    salonAddress: unknown;
    salonTimezone: string;
    salonPhone: string | null;
    salonEmail: string | null;
    customerId: string | null;
    customerName: string;
    customerPhone: string | null;
    customerEmail: string | null;
  }>(db, { name: 'booking-message-parties', sql: MESSAGE_PARTIES, bindings: [booking.id, booking.customerId, booking.tenantId] });
  const first = rows[0];
  if (!first) throw new Error(`salon ${booking.tenantId} of booking ${booking.id} not found`);
  return {
    salon: {
      name: first.salonName,
      slug: first.salonSlug,
      address: first.salonAddress,
      timezone: first.salonTimezone,
      contactPhone: first.salonPhone,
      contactEmail: first.salonEmail,
    },
    items: rows.filter((r) => r.itemId).map((r) => ({ serviceName: r.serviceName, resourceName: r.resourceName })),
    customer: first.customerId ? { name: first.customerName, phone: first.customerPhone, email: first.customerEmail } : null,
  };
}
