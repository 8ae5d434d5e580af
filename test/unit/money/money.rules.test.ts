import { expect } from 'chai';
import { formatMoney } from '../../../domain/money/money.rules';
import { formatMoney as pageMoney, intlLocale } from '../../../web/shared/format';
import { refundSmsText, latePaymentReleasedMessage } from '../../../domain/notifications/payment-messages.rules';

describe('money in messages (domain/money)', () => {
  it('when an amount is written then it is "kr" in both languages, decimals only when there are some, with plain spaces', () => {
    expect(formatMoney(69900, 'NOK', 'nb')).to.equal('699 kr');
    expect(formatMoney(15050, 'NOK', 'nb')).to.equal('150,50 kr');
    expect(formatMoney(125050, 'NOK', 'nb')).to.equal('1 250,50 kr');
    expect(formatMoney(15050, 'NOK', 'en')).to.equal('kr 150.50');
    expect(formatMoney(500, 'JPY', 'en')).to.equal('¥500');
  });

  it('when the messages and the booking page write the same amount then they write the same words (the page keeps non-breaking spaces)', () => {
    for (const minor of [0, 1, 99, 15000, 15050, 125050, 9999999]) {
      for (const [currency, language] of [
        ['NOK', 'nb'],
        ['NOK', 'en'],
        ['SEK', 'nb'],
        ['EUR', 'en'],
      ] as const) {
        expect(formatMoney(minor, currency, language), `${minor} ${currency} ${language}`).to.equal(
          pageMoney(minor, currency, intlLocale(language)).replace(/[\u00a0\u202f]/g, ' '),
        );
      }
    }
  });

  it('when a refund or a released late payment is told then the amount reads "kr", never "NOK", in the booking’s language', () => {
    expect(refundSmsText({ customerName: 'Kari', salonName: 'Klipp', amount: 15050, currency: 'NOK' })).to.equal(
      'Hei Kari! Klipp har refundert 150,50 kr til deg. Det kan ta noen dager før beløpet vises på kontoen.',
    );
    expect(refundSmsText({ customerName: 'Kari', salonName: 'Klipp', amount: 15000, currency: 'NOK', language: 'en' })).to.equal(
      'Hi Kari! Klipp has refunded kr 150 to you. It may take a few days before the amount shows on your account.',
    );
    const late = latePaymentReleasedMessage({ customerName: 'Kari', salonName: 'Klipp', amount: 13000, currency: 'NOK', release: 'VOIDED', language: 'en' });
    expect(late.text).to.contain('Your payment of kr 130 to Klipp').and.not.contain('NOK');
  });
});
