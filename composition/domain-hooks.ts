// The ports lower domain areas declare for the areas above them (CONTRIBUTING.md, "The order of domain
// areas"), filled here with those areas' functions. A lower area never imports an upper one: booking
// reaches the signed-in customer's record, payments, loyalty and the waitlist through BookingHooks; tenant reaches the staff schedules,
// the waitlist and payments through TenantHooks; resource reaches the waitlist through ResourceHooks;
// upload reaches the records that show a file through UploadHooks. The api gets them in
// AppDeps.hooks (composeApi), the worker's payment activities in ActivityDeps.payments.bookingHooks.
import type { AppDeps } from '../api/deps';
import type { BookingHooks } from '../domain/booking/booking-hooks';
import {
  applyCancellationToPayments,
  depositForCancellation,
  requestCaptureForStatus,
  startDepositForNewBooking,
  paidAmountOfBooking,
} from '../domain/payments/payment-booking-hooks';
import { hasActiveConfig } from '../domain/payments/payment-config.service';
import { releaseVoucherOnCancellation, reserveVoucherForBooking } from '../domain/loyalty/loyalty-voucher.service';
import { offerFreedTime, offerGrownWorkingTime } from '../domain/waitlist/waitlist-triggers';
import { bookingWindowGrew, firstBookingCancelled } from '../domain/series/series.service';
import { applyBusinessHoursToStaff } from '../domain/resource/apply-to-staff';
import { removeBrandingImage } from '../domain/tenant/tenant.repository';
import { clearServiceImage } from '../domain/catalogue/catalogue.repository';
import { clearResourceAvatar, launchReadiness } from '../domain/resource/resource.repository';
import { accountCustomer } from '../domain/customer-account/account-customer';

export const bookingHooks: BookingHooks = {
  accountCustomer,
  reserveVoucher: reserveVoucherForBooking,
  startDeposit: startDepositForNewBooking,
  depositForCancellation,
  releaseVoucher: releaseVoucherOnCancellation,
  cancelled: applyCancellationToPayments,
  bookingCancelled: firstBookingCancelled,
  statusChanged: requestCaptureForStatus,
  timeFreed: offerFreedTime,
  paidAmount: paidAmountOfBooking,
};

export const domainHooks: AppDeps['hooks'] = {
  booking: bookingHooks,
  tenant: { applyBusinessHoursToStaff, workingTimeGrew: offerGrownWorkingTime, bookingWindowGrew, hasActivePaymentConfig: hasActiveConfig, launchReadiness },
  resource: { workingTimeGrew: offerGrownWorkingTime },
  upload: { removeBrandingImage, clearServiceImage, clearResourceAvatar },
};
