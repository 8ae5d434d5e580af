import { expect } from 'chai';
import { norwegianDateTime, renderBookingMessage } from '../../../domain/notifications/booking-messages.rules';

describe('booking messages (nb-NO)', () => {
  const facts = {
    salonName: 'Klipp & Stell',
    customerName: 'Kari',
    startTime: new Date('2026-12-04T13:30:00.000Z'),
    endTime: new Date('2026-12-04T15:00:00.000Z'),
    timezone: 'Europe/Oslo',
    services: ['Dameklipp'],
    staffName: 'Ola',
  };

  it('when a time is rendered then it is the salon-local wall clock in Norwegian', () => {
    expect(norwegianDateTime(new Date('2026-12-04T13:30:00.000Z'), 'Europe/Oslo')).to.equal('fredag 4. desember kl. 14:30');
    // summer time: UTC+2
    expect(norwegianDateTime(new Date('2026-06-01T08:00:00.000Z'), 'Europe/Oslo')).to.equal('mandag 1. juni kl. 10:00');
  });

  it('when the frozen time zone differs then the same instant renders in that zone', () => {
    expect(norwegianDateTime(new Date('2026-12-04T13:30:00.000Z'), 'America/New_York')).to.equal('fredag 4. desember kl. 08:30');
  });

  it('when each kind is rendered then it names the salon, the service and the time', () => {
    for (const kind of ['RECEIVED', 'CONFIRMED', 'REMINDER', 'RESCHEDULED', 'CANCELLED'] as const) {
      const message = renderBookingMessage(kind, facts);
      expect(message.subject, kind).to.contain('Klipp & Stell');
      expect(message.text, kind).to.contain('Hei Kari!').and.contain('Dameklipp').and.contain('kl. 14:30–16:00');
    }
    expect(renderBookingMessage('REMINDER', facts).subject).to.match(/^Påminnelse/);
  });
  it('when a visit with processing time is rendered then the whole appointment shows, to its last phase; an end past midnight names its date', () => {
    expect(renderBookingMessage('CONFIRMED', facts).text).to.contain('fredag 4. desember kl. 14:30–16:00');
    const late = { ...facts, startTime: new Date('2026-12-04T22:30:00.000Z'), endTime: new Date('2026-12-05T00:00:00.000Z') };
    expect(renderBookingMessage('CONFIRMED', late).text).to.contain('fredag 4. desember kl. 23:30–lørdag 5. desember kl. 01:00');
  });

  it('when the booking has a manage page then the received, confirmation, reminder and moved messages end with its link; the cancellation and bookings without one carry none', () => {
    const manageUrl = 'https://book.example.no/klipp/bookings/6b0c?token=abc.def';
    for (const kind of ['RECEIVED', 'CONFIRMED', 'REMINDER', 'RESCHEDULED'] as const) {
      expect(renderBookingMessage(kind, { ...facts, manageUrl }).text, kind).to.match(new RegExp(` Se eller avbestill timen: ${manageUrl.replace(/[.?]/g, '\\$&')}$`));
      expect(renderBookingMessage(kind, { ...facts, manageUrl: null }).text, kind).to.not.contain('avbestill timen:');
    }
    expect(renderBookingMessage('CANCELLED', { ...facts, manageUrl }).text).to.not.contain(manageUrl);
  });
});
