// Every activity the worker registers, built from their dependencies.
import { createBookingActivities, type BookingActivityDeps } from './booking.activities';
import { createVoucherActivities } from './loyalty.activities';
import { createUploadActivities, type UploadActivityDeps } from './upload.activities';
import { createPaymentActivities, type PaymentActivityDeps } from './payments.activities';
import { createSubscriptionActivities, type SubscriptionActivityDeps } from './billing.activities';
import { createWaitlistActivities, type WaitlistActivityDeps } from './waitlist.activities';
import { createSeriesActivities, type SeriesActivityDeps } from './series.activities';
import { createAccountMessageActivities, type AccountActivityDeps } from './account.activities';
import { createPersonalDataActivities } from './personal-data.activities';

/**
 * `storage` registers the upload activities (a worker without storage runs no upload workflows);
 * `links` also signs the offer links of the waitlist messages (a worker without it cannot send them);
 * `accounts` sends the messages to an account's owner (password resets, contact changes, phone codes);
 * `now` is the one clock every activity family reads (unset: the system clock);
 * `bookingHooks` (else `payments.bookingHooks`) lets the series book its occurrences.
 */
export type ActivityDeps = BookingActivityDeps &
  PaymentActivityDeps &
  Pick<AccountActivityDeps, 'accounts'> &
  Partial<Pick<UploadActivityDeps, 'storage'>> &
  Omit<SubscriptionActivityDeps, 'knex'> &
  Pick<SeriesActivityDeps, 'bookingHooks'>;

export function createActivities(deps: ActivityDeps) {
  return {
    ...createBookingActivities(deps),
    ...createVoucherActivities(deps),
    ...(deps.storage ? createUploadActivities({ knex: deps.knex, storage: deps.storage }) : {}),
    ...createPaymentActivities(deps),
    ...createSubscriptionActivities(deps),
    ...createWaitlistActivities(deps as WaitlistActivityDeps),
    ...createSeriesActivities(deps as SeriesActivityDeps),
    ...createAccountMessageActivities(deps),
    ...createPersonalDataActivities(deps),
  };
}
