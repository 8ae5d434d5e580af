import { expect } from 'chai';
import { promiseOf, type BookingSnapshot } from '../../../domain/booking/booking-events.rules';

describe('the booking snapshot the workflow reads (docs/rules/consistency.md#the-entity-contract)', () => {
  const base: BookingSnapshot = {
    bookingId: 'b',
    tenantId: 't',
    status: 'CONFIRMED',
    version: 2,
    startTime: '2026-12-04T09:00:00.000Z',
    recordedAfterTheFact: false,
  };

  it('when a snapshot carries the promise and the flag time then the workflow reads them', () => {
    expect(promiseOf({ ...base, promisedAt: '2026-12-03T09:00:00.000Z', unpromisedFlagLeadMs: 7_200_000 })).to.deep.equal({
      promisedAt: '2026-12-03T09:00:00.000Z',
      flagLeadMs: 7_200_000,
    });
  });

  it('when a run replays a snapshot recorded before the rename (confirmedAt, unconfirmedFlagLeadMs) then it reads the same values from the old names', () => {
    expect(promiseOf({ ...base, confirmedAt: '2026-12-03T09:00:00.000Z', unconfirmedFlagLeadMs: 7_200_000 })).to.deep.equal({
      promisedAt: '2026-12-03T09:00:00.000Z',
      flagLeadMs: 7_200_000,
    });
  });

  it('when a snapshot was recorded before either existed then no promise and no flag', () => {
    expect(promiseOf(base)).to.deep.equal({ promisedAt: null, flagLeadMs: null });
  });
});
