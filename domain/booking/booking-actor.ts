// Who acts on a booking: the signed-in user, their role, and (for STAFF and OWNER) the resource
// linked to their login, which scopes what STAFF may see and book (booking-scope.ts).
import { resourceIdForUser } from '../resource/resource.service';
import type { Db } from '../../db/db-handle';
import type { Actor } from './booking.types';

export async function bookingActor(db: Db, principal: { userId: string; role: string }): Promise<Actor> {
  const resourceId = principal.role === 'STAFF' || principal.role === 'OWNER' ? await resourceIdForUser(db, principal.userId) : null;
  return { userId: principal.userId, role: principal.role as Actor['role'], resourceId };
}
