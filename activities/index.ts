// Every activity the worker registers, built from their dependencies.
import { createBookingActivities, type BookingActivityDeps } from './booking.activities';
import { createSubscriptionActivities, type SubscriptionActivityDeps } from './subscription.activities';

export type ActivityDeps = BookingActivityDeps & Omit<SubscriptionActivityDeps, 'knex'>;

export function createActivities(deps: ActivityDeps) {
  return {
    ...createBookingActivities(deps),
    ...createSubscriptionActivities(deps),
  };
}
