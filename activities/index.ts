// Every activity the worker registers, built from their dependencies.
import { createBookingActivities, type BookingActivityDeps } from './booking.activities';
import { createPaymentActivities, type PaymentActivityDeps } from './payment.activities';

export type ActivityDeps = BookingActivityDeps & PaymentActivityDeps;

export function createActivities(deps: ActivityDeps) {
  return {
    ...createBookingActivities(deps),
    ...createPaymentActivities(deps),
  };
}
