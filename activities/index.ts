// Every activity the worker registers, built from their dependencies.
import { createBookingActivities, type BookingActivityDeps } from './booking.activities';
import { createVoucherActivities } from './voucher.activities';
import { createUploadActivities, type UploadActivityDeps } from './upload.activities';

/** `storage` registers the upload activities (a worker without storage runs no upload workflows). */
export type ActivityDeps = BookingActivityDeps & Partial<Pick<UploadActivityDeps, 'storage'>>;

export function createActivities(deps: ActivityDeps) {
  return {
    ...createBookingActivities(deps),
    ...createVoucherActivities(deps),
    ...(deps.storage ? createUploadActivities({ knex: deps.knex, storage: deps.storage }) : {}),
  };
}
