// Every activity the worker registers, built from their dependencies.
import { createBookingActivities, type BookingActivityDeps } from './booking.activities';
import { createVoucherActivities } from './voucher.activities';

export type ActivityDeps = BookingActivityDeps;

export function createActivities(deps: ActivityDeps) {
  return {
    ...createBookingActivities(deps),
    ...createVoucherActivities(deps),
  };
}
