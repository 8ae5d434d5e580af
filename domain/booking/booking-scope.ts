/** Who may act on which booking (docs/rules/auth.md#staff-scoping). */
import { errors } from '../errors';
import { hasItemOnResource } from './booking.repository';
import type { Actor, Db } from './booking.types';

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
