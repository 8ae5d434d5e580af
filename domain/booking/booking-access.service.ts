/**
 * Who may act on which booking: the signed-in user as the booking services know them (bookingActor),
 * what STAFF may touch (docs/rules/auth.md#staff-scoping), and a guest's proof that a booking is
 * theirs (guestBooking: the manage link's token, docs/rules/booking-page.md#manage-links, or the
 * contact phone).
 */
import { errors } from '../errors';
import type { Db } from '../../db/db-handle';
import type { TenantContext } from '../tenant/tenant-context';
import { phoneRegionOf, samePhone } from '../phone/phone.rules';
import { resourceIdForUser } from '../resource/resource.service';
import { nowOf } from '../time/clock';
import { isManageLinkValid, verifyManageToken } from './manage-link.service';
import { findBooking, hasItemOnResource } from './booking.repository';
import type { Actor, BookingDeps, BookingRow } from './booking.types';

/** The signed-in user, their role, and (for STAFF and OWNER) the resource linked to their login, which scopes what STAFF may see and book. */
export async function bookingActor(db: Db, principal: { userId: string; role: string }): Promise<Actor> {
  const resourceId = principal.role === 'STAFF' || principal.role === 'OWNER' ? await resourceIdForUser(db, principal.userId) : null;
  return { userId: principal.userId, role: principal.role as Actor['role'], resourceId };
}

/**
 * STAFF may act on bookings of their own resource and on unassigned ones; others are 403.
 * A multi-service booking also counts as theirs when one of its items is on their resource.
 */
export async function assertStaffScope(db: Db, actor: Actor, booking: { id: string; resourceId: string | null }): Promise<void> {
  if (actor.role !== 'STAFF') return;
  if (booking.resourceId === null) return;
  if (actor.resourceId && booking.resourceId === actor.resourceId) return;
  if (actor.resourceId && (await hasItemOnResource(db, booking.id, actor.resourceId))) return;
  throw errors.forbidden('This booking belongs to another staff member');
}

/** The caller's own staff resource; 403 when their login is not linked to one. */
export function ownResourceOf(actor: Actor): string {
  if (!actor.resourceId) throw errors.forbidden('Your login is not linked to a staff resource');
  return actor.resourceId;
}

/** How a guest proves a booking is theirs: the manage link's token (until 14 days after the appointment) or the contact phone. */
export interface GuestProof {
  token?: string;
  phone?: string;
}

/** The booking when the proof matches; otherwise 404 (the booking does not exist for the caller: no leaking by id). */
export async function guestBooking(
  deps: Pick<BookingDeps, 'knex' | 'manageLinkKey' | 'now'>,
  tenant: TenantContext,
  id: string,
  proof: GuestProof,
): Promise<BookingRow> {
  const row = await findBooking(deps.knex, tenant.id, id);
  const ok =
    !!row &&
    ((proof.token !== undefined &&
      isManageLinkValid(row.endTime, nowOf(deps)) &&
      verifyManageToken(deps.manageLinkKey, id, proof.token, row.manageTokenHash)) ||
      // the number as typed, read in the salon's country, against the stored E.164 one
      (proof.phone !== undefined && samePhone(proof.phone, row.contactPhone, phoneRegionOf(tenant))));
  if (!ok) throw errors.notFound('booking');
  return row!;
}
