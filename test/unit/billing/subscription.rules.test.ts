import { expect } from 'chai';
import {
  isSubscriptionLapsed,
  outcomeOf,
  readModelOf,
  remainingTrialDays,
  trialDueAt,
  type BillingEvent,
  type SubscriptionFacts,
} from '../../../domain/billing/subscription.rules';
import { assertValidPricing, storedFeatureValue, trialDaysOf } from '../../../domain/billing/plan.rules';

const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;

function ev(kind: BillingEvent['kind'], fields: Partial<BillingEvent> = {}): BillingEvent {
  return {
    kind,
    providerSubId: 'sub_1',
    tenantId: null,
    planKey: null,
    variantId: null,
    status: null,
    customerId: null,
    currentPeriodEnd: null,
    trialEndsAt: null,
    cancelAtPeriodEnd: null,
    ...fields,
  };
}

function row(status: SubscriptionFacts['status'], fields: Partial<SubscriptionFacts> = {}): SubscriptionFacts {
  return { status, providerSubId: 'sub_1', trialEndsAt: null, cancelAtPeriodEnd: false, ...fields };
}

describe('subscription rules', () => {
  describe('outcomeOf', () => {
    const table: [string, BillingEvent, SubscriptionFacts | undefined, ReturnType<typeof outcomeOf>][] = [
      ['created, no row: a new ACTIVE row', ev('created'), undefined, { action: 'insert', status: 'ACTIVE' }],
      ['created after expiry: the EXPIRED row is left alone', ev('created'), row('EXPIRED'), { action: 'ignore', reason: 'SUBSCRIPTION_EXPIRED_IS_TERMINAL' }],
      ['payment failed on ACTIVE: PAST_DUE', ev('payment_failed'), row('ACTIVE'), { action: 'update', status: 'PAST_DUE' }],
      ['payment failed on CANCELED: ignored', ev('payment_failed'), row('CANCELED'), { action: 'ignore', reason: 'PAYMENT_FAILED_IN_CANCELED' }],
      ['cancel on ACTIVE', ev('canceled'), row('ACTIVE'), { action: 'update', status: 'CANCELED', cancelAtPeriodEnd: true, canceled: true }],
      ['cancel on PAST_DUE', ev('canceled'), row('PAST_DUE'), { action: 'update', status: 'CANCELED', cancelAtPeriodEnd: true, canceled: true }],
      ['renewed on PAST_DUE: ACTIVE', ev('renewed'), row('PAST_DUE'), { action: 'update', status: 'ACTIVE', cancelAtPeriodEnd: undefined }],
      ['expired from any state', ev('expired'), row('CANCELED'), { action: 'update', status: 'EXPIRED', expired: true }],
      ['expired for an unknown subscription', ev('expired'), undefined, { action: 'ignore', reason: 'SUBSCRIPTION_NOT_FOUND' }],
      ['any event on EXPIRED', ev('renewed'), row('EXPIRED'), { action: 'ignore', reason: 'SUBSCRIPTION_EXPIRED_IS_TERMINAL' }],
      [
        'updated never moves a row to EXPIRED by status',
        ev('updated', { status: 'EXPIRED' }),
        row('ACTIVE'),
        { action: 'update', status: 'ACTIVE', cancelAtPeriodEnd: undefined },
      ],
    ];
    for (const [name, event, current, expected] of table) {
      it(`when ${name} then ${JSON.stringify(expected)}`, () => expect(outcomeOf(event, current)).to.deep.equal(expected));
    }
  });

  describe('the gate', () => {
    const cases: [string, Parameters<typeof isSubscriptionLapsed>[0], boolean][] = [
      ['no subscription', { subscriptionStatus: null, trialEndsAt: null, billingExempt: false }, false],
      ['trial running', { subscriptionStatus: 'ACTIVE', trialEndsAt: new Date(NOW + 1), billingExempt: false }, false],
      ['trial ends exactly now', { subscriptionStatus: 'ACTIVE', trialEndsAt: new Date(NOW), billingExempt: false }, true],
      ['paid ACTIVE (no trial end on the read-model)', { subscriptionStatus: 'ACTIVE', trialEndsAt: null, billingExempt: false }, false],
      ['EXPIRED', { subscriptionStatus: 'EXPIRED', trialEndsAt: null, billingExempt: false }, true],
      ['EXPIRED but billing-exempt', { subscriptionStatus: 'EXPIRED', trialEndsAt: null, billingExempt: true }, false],
      ['PAST_DUE', { subscriptionStatus: 'PAST_DUE', trialEndsAt: null, billingExempt: false }, false],
      ['CANCELED', { subscriptionStatus: 'CANCELED', trialEndsAt: new Date(NOW - DAY), billingExempt: false }, false],
    ];
    for (const [name, tenant, lapsed] of cases) it(`when ${name} then lapsed=${lapsed}`, () => expect(isSubscriptionLapsed(tenant, NOW)).to.equal(lapsed));
  });

  it('when the read-model is derived then trialEndsAt is kept only for the platform trial', () => {
    const end = new Date(NOW + DAY);
    expect(readModelOf(row('ACTIVE', { providerSubId: null, trialEndsAt: end }))).to.deep.equal({ subscriptionStatus: 'ACTIVE', trialEndsAt: end });
    expect(readModelOf(row('ACTIVE', { trialEndsAt: end }))).to.deep.equal({ subscriptionStatus: 'ACTIVE', trialEndsAt: null });
    expect(readModelOf(undefined)).to.deep.equal({ subscriptionStatus: null, trialEndsAt: null });
  });

  it('when trial days remain then they are counted up to whole days; none after the end', () => {
    expect(remainingTrialDays(new Date(NOW + 14 * DAY), NOW)).to.equal(14);
    expect(remainingTrialDays(new Date(NOW + 13 * DAY + 1), NOW)).to.equal(14);
    expect(remainingTrialDays(new Date(NOW - 1), NOW)).to.equal(0);
    expect(remainingTrialDays(null, NOW)).to.equal(0);
  });

  it('when the timer is planned then only an ACTIVE trial has one', () => {
    expect(trialDueAt({ subscriptionStatus: 'ACTIVE', trialEndsAt: '2026-12-06T12:00:00.000Z' })).to.equal(Date.parse('2026-12-06T12:00:00.000Z'));
    expect(trialDueAt({ subscriptionStatus: 'EXPIRED', trialEndsAt: '2026-12-06T12:00:00.000Z' })).to.equal(null);
    expect(trialDueAt({ subscriptionStatus: 'ACTIVE', trialEndsAt: null })).to.equal(null);
  });
});

describe('plan rules', () => {
  it('when pricing is checked then flat xor per-seat, and a self-serve plan needs a price', () => {
    expect(() => assertValidPricing({ flatPriceMinor: 100, pricePerSeatMinor: null, selfServeCheckout: true })).to.not.throw();
    expect(() => assertValidPricing({ flatPriceMinor: null, pricePerSeatMinor: null, selfServeCheckout: false })).to.not.throw();
    expect(() => assertValidPricing({ flatPriceMinor: 100, pricePerSeatMinor: 50, selfServeCheckout: true })).to.throw();
    expect(() => assertValidPricing({ flatPriceMinor: null, pricePerSeatMinor: null, selfServeCheckout: true })).to.throw();
  });

  it('when feature values are stored then they follow the value type', () => {
    expect(storedFeatureValue('boolean', true, 'f')).to.equal(null);
    expect(storedFeatureValue('boolean', false, 'f')).to.equal(undefined);
    expect(storedFeatureValue('number', 5, 'f')).to.equal('5');
    expect(storedFeatureValue('string', 'Full', 'f')).to.equal('Full');
    expect(() => storedFeatureValue('number', 'five', 'f')).to.throw();
    expect(() => storedFeatureValue('string', '  ', 'f')).to.throw();
  });

  it('when a plan has no trialDays then the platform default of 14 applies', () => {
    expect(trialDaysOf({ trialDays: null })).to.equal(14);
    expect(trialDaysOf({ trialDays: 30 })).to.equal(30);
    expect(trialDaysOf(undefined)).to.equal(14);
  });
});
