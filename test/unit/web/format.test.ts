import { expect } from 'chai';
import fc from 'fast-check';
import { addDays, dayOfWeek, formatDay, formatDuration, formatMoney, formatTime, isLocalDate, localDateOf, mondayOf, weekOf } from '../../../web/shared/format';
import { contactBody, contactProblems } from '../../../web/shared/contact';
import { depositFor } from '../../../web/shared/deposit';
import { depositAmount } from '../../../domain/payments/payment.rules';

describe('booking page formatting (salon zone, currency and locale)', () => {
  it('when an instant is shown then it is the salon-local wall clock, also across the DST changes in Oslo, whatever the machine zone', () => {
    expect(formatTime('2026-03-29T00:30:00.000Z', 'Europe/Oslo', 'nb-NO')).to.equal('01:30');
    expect(formatTime('2026-03-29T01:30:00.000Z', 'Europe/Oslo', 'nb-NO')).to.equal('03:30');
    expect(formatTime('2026-10-25T00:30:00.000Z', 'Europe/Oslo', 'nb-NO')).to.equal('02:30');
    expect(formatTime('2026-10-25T01:30:00.000Z', 'Europe/Oslo', 'nb-NO')).to.equal('02:30');
    expect(formatDay('2026-12-04T13:30:00.000Z', 'Europe/Oslo', 'nb-NO')).to.equal('fredag 4. desember');
    expect(formatDay('2026-12-04T13:30:00.000Z', 'Europe/Oslo', 'en-GB')).to.equal('Friday 4 December');
    expect(localDateOf('2026-12-04T23:30:00.000Z', 'Europe/Oslo')).to.equal('2026-12-05');
    expect(localDateOf('2026-12-04T23:30:00.000Z', 'America/New_York')).to.equal('2026-12-04');
  });

  it('when money is shown then it is the salon currency from minor units with its local sign in both languages, decimals only when there are some', () => {
    expect(formatMoney(69900, 'NOK', 'nb-NO')).to.equal('699\u00a0kr');
    expect(formatMoney(69950, 'NOK', 'nb-NO')).to.equal('699,50\u00a0kr');
    expect(formatMoney(69900, 'NOK', 'en-GB')).to.equal('kr\u00a0699');
    expect(formatMoney(500, 'JPY', 'en-GB')).to.equal('¥500');
  });

  it('when dates are walked then weeks start on Monday and impossible dates are refused', () => {
    expect(mondayOf('2026-11-29')).to.equal('2026-11-23');
    expect(weekOf('2026-11-23')).to.deep.equal(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29']);
    expect(addDays('2026-03-28', 2)).to.equal('2026-03-30');
    expect(dayOfWeek('2026-11-29')).to.equal(0);
    expect(isLocalDate('2027-02-30')).to.equal(false);
    expect(isLocalDate('2028-02-29')).to.equal(true);
    expect(formatDuration(90, 'nb')).to.equal('1 t 30 min');
    expect(formatDuration(45, 'en')).to.equal('45 min');
  });

  it('when the contact form is checked then it follows the API limits, and what is sent is trimmed', () => {
    expect(contactProblems({ name: ' ', phone: '', email: 'x', notes: '' })).to.deep.equal({ name: 'required', phone: 'required', email: 'invalidEmail' });
    expect(contactProblems({ name: 'Kari', phone: '91x34', email: '', notes: '' })).to.deep.equal({ phone: 'invalidPhone' });
    expect(contactProblems({ name: 'Kari', phone: '912 34 567', email: 'kari@example.com', notes: '' })).to.deep.equal({});
    expect(
      contactBody({ name: ' Kari ', phone: ' 912 34 567 ', email: ' ', notes: '' }),
      'the number goes as typed: the platform reads it in the salon’s country',
    ).to.deep.equal({ name: 'Kari', phone: '912 34 567', email: null, notes: null });
    expect(contactBody({ name: 'Ka\u0000ri\n', phone: '912 34 567', email: '', notes: 'line 1\nline\u0007 2' })).to.include({
      name: 'Kari',
      notes: 'line 1\nline 2',
    });
    expect(contactProblems({ name: '\u0000', phone: '912 34 567', email: '', notes: '' })).to.deep.equal({ name: 'required' });
  });

  it('when the page shows the deposit before booking then it is the amount the platform will ask for', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (payable, percent, fixed) => {
          expect(depositFor(payable, { type: 'percentage', value: percent })).to.equal(
            depositAmount({ totalAmount: payable, discountAmount: 0, depositType: 'percentage', depositValue: percent }),
          );
          expect(depositFor(payable, { type: 'fixed', value: fixed })).to.equal(
            depositAmount({ totalAmount: payable, discountAmount: 0, depositType: 'fixed', depositValue: fixed }),
          );
        },
      ),
    );
  });
});
