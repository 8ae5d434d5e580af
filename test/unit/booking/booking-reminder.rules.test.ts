import { expect } from 'chai';
import { reminderDueAt } from '../../../domain/booking/booking-status.rules';
import { canPromise, reminderLeadMs, replyIntent, unpromisedFlagDueAt, unpromisedFlagLeadMs } from '../../../domain/booking/booking-reminder.rules';
import { completeSettings, settingsProblems } from '../../../domain/tenant/tenant-settings.rules';
import { senderPhone } from '../../../domain/notifications/sms-reply.rules';

const HOUR = 60 * 60 * 1000;
const now = Date.parse('2026-12-01T12:00:00.000Z');

describe('reminder rules: the reminder, the promise to come, the flag (docs/rules/reminders.md)', () => {
  describe('the reminder time', () => {
    it('when the salon sets 3 hours then the reminder is due at start - 3 h; booked 3 hours or less ahead, none', () => {
      const lead = reminderLeadMs({ reminderHoursBefore: 3 });
      expect(reminderDueAt({ status: 'CONFIRMED', startTime: new Date(now + 10 * HOUR) }, now, lead)).to.equal(now + 7 * HOUR);
      expect(reminderDueAt({ status: 'CONFIRMED', startTime: new Date(now + 3 * HOUR) }, now, lead)).to.equal(null);
      expect(reminderDueAt({ status: 'CONFIRMED', startTime: new Date(now + 3 * HOUR + 1) }, now, lead)).to.equal(now + 1);
    });

    it('when the setting is missing (a snapshot of before) then 24 hours', () => {
      expect(reminderLeadMs({})).to.equal(24 * HOUR);
      expect(reminderLeadMs({ reminderHoursBefore: null })).to.equal(24 * HOUR);
    });
  });

  describe('the flag of a booking without a promise', () => {
    const booking = { status: 'CONFIRMED' as const, startTime: new Date(now + 48 * HOUR), promisedAt: null };
    it('when the salon flags 2 hours before then the flag is due at start - 2 h', () => {
      expect(unpromisedFlagDueAt(booking, now, unpromisedFlagLeadMs({ unpromisedFlagHoursBefore: 2 }))).to.equal(now + 46 * HOUR);
    });
    it('when the customer promised to come, the flag is off, the booking is cancelled or made inside the flag time then none', () => {
      const lead = 2 * HOUR;
      expect(unpromisedFlagDueAt({ ...booking, promisedAt: new Date(now) }, now, lead)).to.equal(null);
      expect(unpromisedFlagDueAt(booking, now, unpromisedFlagLeadMs({ unpromisedFlagHoursBefore: null }))).to.equal(null);
      expect(unpromisedFlagDueAt({ ...booking, status: 'CANCELLED' }, now, lead)).to.equal(null);
      expect(unpromisedFlagDueAt({ ...booking, startTime: new Date(now + 2 * HOUR) }, now, lead)).to.equal(null);
    });
    it('when the flag time is 1 less than the reminder it is a valid setting; equal to it is a problem', () => {
      expect(settingsProblems(completeSettings('beauty', { reminderHoursBefore: 24, unpromisedFlagHoursBefore: 23 }), () => true)).to.deep.equal([]);
      expect(
        settingsProblems(completeSettings('beauty', { reminderHoursBefore: 24, unpromisedFlagHoursBefore: 24 }), () => true).map((p) => p.field),
      ).to.deep.equal(['settings.unpromisedFlagHoursBefore']);
    });
  });

  it('when a booking is ahead and not started the customer can promise to come; started, cancelled or arrived they cannot', () => {
    expect(canPromise({ status: 'PENDING', startTime: new Date(now + HOUR) }, now)).to.equal(true);
    expect(canPromise({ status: 'CONFIRMED', startTime: new Date(now) }, now)).to.equal(false);
    expect(canPromise({ status: 'CANCELLED', startTime: new Date(now + HOUR) }, now)).to.equal(false);
    expect(canPromise({ status: 'ARRIVED', startTime: new Date(now + HOUR) }, now)).to.equal(false);
  });

  describe('what a reply asks for', () => {
    const cases: [string, string][] = [
      ['JA', 'PROMISE'],
      ['ja', 'PROMISE'],
      [' Ja! ', 'PROMISE'],
      ['YES.', 'PROMISE'],
      ['Yes 👍', 'PROMISE'],
      ['NEI', 'CANCEL'],
      ['nei.', 'CANCEL'],
      ['No', 'CANCEL'],
      ['ja takk', 'OTHER'],
      ['ja, men kan jeg komme senere?', 'OTHER'],
      ['jaa', 'OTHER'],
      ['', 'OTHER'],
      ['STOPP', 'OTHER'],
    ];
    for (const [text, intent] of cases) {
      it(`when the text is "${text}" then ${intent}`, () => expect(replyIntent(text)).to.equal(intent));
    }
  });

  describe('the sender as the gateway writes it', () => {
    it('when the number has the country code without a plus then it is read as E.164', () => {
      expect(senderPhone('4791234567')).to.equal('+4791234567');
      expect(senderPhone('46701234567')).to.equal('+46701234567');
    });
    it('when the number is 8 digits then it is Norwegian; with a plus or 00 its own country', () => {
      expect(senderPhone('91234567')).to.equal('+4791234567');
      expect(senderPhone('+46701234567')).to.equal('+46701234567');
      expect(senderPhone('0046701234567')).to.equal('+46701234567');
    });
    it('when it is no number then null', () => {
      expect(senderPhone('abc')).to.equal(null);
      expect(senderPhone('1234')).to.equal(null);
    });
  });
});
