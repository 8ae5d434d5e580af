// The payment workflow's activities in a worker with no payment providers (activities/payments.activities.ts),
// in a mocked activity context with the database faked: each provider call fails for good, typed, so
// the workflow raises its alert instead of retrying for an hour.
import { expect } from 'chai';
import { ApplicationFailure } from '@temporalio/activity';
import { activityEnvironment, failureOf } from '../../support/activity-environment';
import { createPaymentActivities } from '../../../activities/payments.activities';
import { PaymentActivityErrors } from '../../../activities/payments.types';
import type { Db } from '../../../db/db-handle';

const untouched = new Proxy({}, { get: () => expect.fail('the database was read') }) as unknown as Db;

describe('payment activities without payment providers', () => {
  const activities = createPaymentActivities({ knex: untouched, sms: { send: async () => {} }, mailer: { send: async () => {} } });

  for (const name of ['openPaymentSession', 'capturePayment', 'voidPayment', 'processRefunds', 'expirePayment', 'releaseLatePayment'] as const) {
    it(`when ${name} runs in such a worker then it fails for good as PAYMENTS_NOT_CONFIGURED before touching the database`, async () => {
      const failure = await failureOf(activityEnvironment().run(() => activities[name]({ paymentId: 'p1' })));
      expect(failure).to.be.instanceOf(ApplicationFailure);
      expect(failure).to.include({ type: PaymentActivityErrors.notConfigured, nonRetryable: true });
    });
  }
});
