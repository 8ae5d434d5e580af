// The personal-data rules (docs/rules/personal-data.md): the retention's cut-off and due date, the
// accounting period in the salon's time zone (the year turns at midnight in Oslo, not in UTC), the
// filter that keeps addresses out of logs and histories, and which messages are marketing.
import { expect } from 'chai';
import {
  CUSTOMER_RETENTION_MONTHS,
  lastRemovableAccountingYear,
  retentionCutoff,
  retentionDueAt,
  retentionMonthsOf,
  withoutContacts,
} from '../../../domain/personal-data/personal-data.rules';
import { messageCategory } from '../../../domain/notifications/message-category.rules';

describe('personal-data rules', () => {
  it('when a salon names no retention then it is 36 months, and the bounds are 12 and 120', () => {
    expect(retentionMonthsOf({})).to.equal(36);
    expect(retentionMonthsOf({ customerRetentionMonths: 12 })).to.equal(12);
    expect(CUSTOMER_RETENTION_MONTHS).to.deep.equal({ min: 12, max: 120, default: 36 });
  });

  it('when the retention is counted then it goes back and forth whole calendar months', () => {
    const asOf = new Date('2029-03-15T10:00:00.000Z');
    expect(retentionCutoff(asOf, 36).toISOString()).to.equal('2026-03-15T10:00:00.000Z');
    expect(retentionDueAt(new Date('2026-03-15T10:00:00.000Z'), 36).toISOString()).to.equal('2029-03-15T10:00:00.000Z');
  });

  for (const [asOf, year, why] of [
    ['2032-01-01T12:00:00.000Z', 2026, 'a sale of 2026 goes on the first of January 2032'],
    ['2031-12-31T12:00:00.000Z', 2025, 'on the last day of 2031 a sale of 2026 is still kept'],
    ['2031-12-31T23:30:00.000Z', 2026, 'at 00:30 on 1 January in Oslo (23:30 UTC) the new year has begun there'],
    ['2032-06-30T22:30:00.000Z', 2026, 'a summer night (UTC+2) is still the same year'],
  ] as const) {
    it(`when the accounting period is asked at ${asOf} then ${why}`, () => {
      expect(lastRemovableAccountingYear(new Date(asOf), 'Europe/Oslo')).to.equal(year);
    });
  }

  it('when a text quotes an e-mail address or a phone number then they are replaced, and ids, dates and counts stay', () => {
    expect(withoutContacts('550 <kari@example.no>: no such mailbox')).to.equal('550 <[e-mail]>: no such mailbox');
    expect(withoutContacts('SMS to +4798765432 failed')).to.equal('SMS to [phone] failed');
    expect(withoutContacts('SMS to 47 987 65 432 failed')).to.equal('SMS to [phone] failed');
    const label = 'booking 12345678-1234-4234-8234-123456789012 (REMINDER:2026-05-01T10:00:00.000Z), attempt 3 of 10';
    expect(withoutContacts(label)).to.equal(label);
  });

  it('when a message kind is asked for then the rebooking nudge is marketing and every other kind a service message', () => {
    expect(messageCategory('REBOOKING_NUDGE')).to.equal('MARKETING');
    for (const kind of ['RECEIVED', 'CONFIRMED', 'REMINDER', 'CANCELLED', 'REFUND', 'LATE_PAYMENT', 'VOUCHER_ISSUED', 'OFFER'])
      expect(messageCategory(kind)).to.equal('SERVICE');
  });
});
