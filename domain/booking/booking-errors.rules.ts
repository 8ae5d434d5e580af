/** Error codes for booking state checks shared by several booking services. */
import { errors } from '../errors';
import { isBlockingStatus } from '../availability/working-hours.rules';
import { ARRIVAL_LEAD_MS, type BookingStatus, type TransitionRejection } from './booking-status.rules';

export function transitionError(rejection: TransitionRejection, from: string, to: string) {
  switch (rejection) {
    case 'NOT_STARTED':
      return errors.unprocessable(
        'BOOKING_NOT_STARTED',
        to === 'ARRIVED'
          ? `The customer can be marked as arrived from ${ARRIVAL_LEAD_MS / 60_000} minutes before the start`
          : `The booking has not started yet: it can be ${to} from its start time`,
      );
    case 'FORCE_NOT_PERMITTED':
      return errors.forbidden('Only an owner or admin may force a status change');
    case 'FORCE_REASON_REQUIRED':
      return errors.validation('Request validation failed', [{ field: 'reason', message: 'is required when force is true' }]);
    case 'SAME_STATUS':
      return errors.conflict('BOOKING_INVALID_TRANSITION', `The booking is already ${to}`);
    default:
      return errors.conflict('BOOKING_INVALID_TRANSITION', `A booking cannot go from ${from} to ${to}`);
  }
}

/** A voucher code on a guest's public booking (docs/rules/loyalty.md#applying-a-voucher): only a signed-in customer may apply one. */
export function voucherGuestNotAllowed() {
  return errors.unprocessable('LOYALTY_VOUCHER_GUEST_NOT_ALLOWED', 'Sign in to use a voucher; guests cannot apply vouchers');
}

/** Cancelled, no-show and completed bookings keep their time and staff: 409 BOOKING_NOT_MODIFIABLE. */
export function assertMovable(status: BookingStatus, verb: 'moved' | 'picked'): void {
  if (!isBlockingStatus(status) || status === 'COMPLETED') throw errors.conflict('BOOKING_NOT_MODIFIABLE', `A ${status} booking cannot be ${verb}`);
}
