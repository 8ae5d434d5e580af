import { expect } from 'chai';
import { DELIVERY_MAX_ATTEMPTS, DELIVERY_RETRY_POLICY, deliveryRetryDelayMs } from '../../../domain/notifications/delivery-retry.rules';

describe('message delivery retry schedule', () => {
  it('when attempts fail then the next ones follow 30 s, 2 min, 10 min, then hourly, 10 attempts in all', () => {
    const delays = Array.from({ length: DELIVERY_MAX_ATTEMPTS - 1 }, (_, i) => deliveryRetryDelayMs(i + 1) / 1000);
    expect(delays).to.deep.equal([30, 120, 600, 3600, 3600, 3600, 3600, 3600, 3600]);
    expect(DELIVERY_RETRY_POLICY.maximumAttempts).to.equal(10);
  });
});
