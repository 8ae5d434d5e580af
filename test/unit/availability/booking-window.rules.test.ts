// The booking window (docs/rules/availability.md#booking-window), capped while deposits are on.
import { expect } from 'chai';
import { DEPOSIT_MAX_BOOKING_DAYS, effectiveMaxBookingDays } from '../../../domain/availability/booking-window.rules';

describe('booking window rules', () => {
  it('deposit tenants book at most 7 days ahead; without deposits the setting stands', () => {
    expect(DEPOSIT_MAX_BOOKING_DAYS).to.equal(7);
    expect(effectiveMaxBookingDays({ maxBookingDaysInAdvance: 30, depositEnabled: true })).to.equal(7);
    expect(effectiveMaxBookingDays({ maxBookingDaysInAdvance: 7, depositEnabled: true })).to.equal(7);
    expect(effectiveMaxBookingDays({ maxBookingDaysInAdvance: 8, depositEnabled: true })).to.equal(7);
    expect(effectiveMaxBookingDays({ maxBookingDaysInAdvance: 5, depositEnabled: true })).to.equal(5);
    expect(effectiveMaxBookingDays({ maxBookingDaysInAdvance: 30, depositEnabled: false })).to.equal(30);
  });
});
