// The read activity of every entity workflow (activities/read-committed.ts,
// docs/rules/consistency.md#the-entity-inbox), in a mocked activity context: no database, no server.
import { expect } from 'chai';
import { ApplicationFailure } from '@temporalio/activity';
import { activityEnvironment, failureOf } from '../../support/activity-environment';
import { committedAt } from '../../../activities/read-committed';
import { bookingContract, type BookingSnapshot } from '../../../domain/booking/booking-events.rules';

const snapshot = (version: number): BookingSnapshot => ({
  bookingId: 'b1',
  tenantId: 't1',
  status: 'CONFIRMED',
  version,
  startTime: '2026-12-04T09:00:00.000Z',
  recordedAfterTheFact: false,
});

describe('reading committed state (activities/read-committed.ts)', () => {
  it('when the row has reached the version the signal named then it is the answer', async () => {
    const env = activityEnvironment();
    expect(await env.run(async () => committedAt(bookingContract, 'b1', 2, snapshot(3)))).to.deep.equal(snapshot(3));
  });

  it('when the row is missing or older (its transaction has not committed yet) then a retryable failure of the contract type', async () => {
    const env = activityEnvironment();
    for (const read of [undefined, snapshot(1)]) {
      const failure = await failureOf(env.run(async () => committedAt(bookingContract, 'b1', 2, read)));
      expect(failure).to.be.instanceOf(ApplicationFailure);
      expect(failure).to.include({ type: bookingContract.versionNotVisible, nonRetryable: false });
    }
  });
});
