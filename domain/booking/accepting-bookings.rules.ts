/** Whether a salon takes bookings (spec 4.7). Pure. */
import { errors } from '../errors';

/** Billing hook: lapsed subscriptions will stop bookings here; today only inactive salons do. */
export function isAcceptingBookings(tenant: { isActive: boolean }): boolean {
  return tenant.isActive;
}

export function assertAcceptingBookings(tenant: { isActive: boolean }): void {
  if (!isAcceptingBookings(tenant)) throw errors.conflict('TENANT_NOT_ACCEPTING_BOOKINGS', 'This salon is not taking bookings right now');
}
