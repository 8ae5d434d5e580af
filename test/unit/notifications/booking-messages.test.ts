import { expect } from 'chai';
import { messageDateTime, norwegianDateTime, renderBookingMessage } from '../../../domain/notifications/booking-messages.rules';
import { renderWaitlistJoined, renderWaitlistOffer } from '../../../domain/notifications/waitlist-messages.rules';

describe('booking messages (Norwegian and English)', () => {
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
      expect(renderBookingMessage(kind, { ...facts, manageUrl }).text, kind).to.match(
        new RegExp(` Se eller avbestill timen: ${manageUrl.replace(/[.?]/g, '\\$&')}$`),
      );
      expect(renderBookingMessage(kind, { ...facts, manageUrl: null }).text, kind).to.not.contain('avbestill timen:');
    }
    expect(renderBookingMessage('CANCELLED', { ...facts, manageUrl }).text).to.not.contain(manageUrl);
  });

  it('when the booking was made in English then every kind is English, with the time written the English way', () => {
    expect(messageDateTime(new Date('2026-12-04T13:30:00.000Z'), 'Europe/Oslo', 'en')).to.equal('Friday 4 December at 14:30');
    const manageUrl = 'https://book.example.no/klipp/bookings/6b0c?token=abc&lang=en';
    for (const kind of ['RECEIVED', 'CONFIRMED', 'REMINDER', 'RESCHEDULED', 'CANCELLED'] as const) {
      const message = renderBookingMessage(kind, { ...facts, manageUrl }, 'en');
      expect(message.text, kind)
        .to.match(/^Hi Kari! /)
        .and.contain('Dameklipp with Ola')
        .and.contain('on Friday 4 December, 14:30–16:00 (Oslo time)')
        .and.not.contain('Hei');
      expect(message.subject, kind)
        .to.contain('Klipp & Stell')
        .and.not.match(/timen|Bekreftet|Avbestilt/);
    }
    expect(renderBookingMessage('REMINDER', facts, 'en').text).to.equal(
      'Hi Kari! A reminder of your appointment: Dameklipp with Ola on Friday 4 December, 14:30–16:00 (Oslo time) at Klipp & Stell.',
    );
    expect(renderBookingMessage('RESCHEDULED', facts, 'en').text).to.equal(
      'Hi Kari! Your appointment has been moved: Dameklipp with Ola on Friday 4 December, 14:30–16:00 (Oslo time).',
    );
    expect(renderBookingMessage('CONFIRMED', { ...facts, manageUrl }, 'en').text).to.match(
      / See or cancel the appointment: https:\/\/book\.example\.no\/klipp\/bookings\/6b0c\?token=abc&lang=en$/,
    );
  });

  it('when a received booking waits for its deposit then it says so instead of waiting for the salon', () => {
    expect(renderBookingMessage('RECEIVED', { ...facts, awaitingDeposit: true }).text).to.contain('Du får en bekreftelse når depositumet er betalt.');
    expect(renderBookingMessage('RECEIVED', facts).text).to.contain('Du får en bekreftelse når Klipp & Stell har godkjent den.');
    expect(renderBookingMessage('RECEIVED', { ...facts, awaitingDeposit: true }, 'en').text).to.contain(
      'You will get a confirmation once the deposit is paid.',
    );
  });

  it('when a booking with a deposit is cancelled then the message says what became of the deposit, in kr', () => {
    const cancelled = (kind: 'REFUNDED' | 'RELEASED' | 'KEPT', language: 'nb' | 'en' = 'nb') =>
      renderBookingMessage('CANCELLED', { ...facts, deposit: { kind, amount: 13050, currency: 'NOK' } }, language).text;
    expect(cancelled('REFUNDED')).to.contain('Depositumet på 130,50 kr betales tilbake til deg');
    expect(cancelled('RELEASED')).to.contain('Reservasjonen på 130,50 kr på kortet ditt er slettet');
    expect(cancelled('KEPT')).to.contain('salongen beholder depositumet på 130,50 kr');
    expect(cancelled('REFUNDED', 'en')).to.contain('The deposit of kr 130.50 is refunded to you');
    expect(renderBookingMessage('CANCELLED', facts).text).to.not.contain('epositum');
  });

  it('when a waitlist entry was made in English then joining and the offer are English, and the links open the pages in English', () => {
    const joined = renderWaitlistJoined(
      {
        salonName: 'Klipp',
        customerName: 'Vera',
        services: ['Dameklipp'],
        staffName: null,
        fromDate: '2026-12-04',
        toDate: '2026-12-06',
        earliestTime: '10:00',
        latestTime: null,
        entryUrl: 'https://x/klipp/waitlist/1?token=t&lang=en',
      },
      'en',
    );
    expect(joined.text).to.equal(
      'Hi Vera! You are on the waitlist at Klipp for Dameklipp, Friday 4 December – Sunday 6 December from 10:00. We will send you a message when a time becomes free. See or leave the waitlist: https://x/klipp/waitlist/1?token=t&lang=en',
    );
    const offer = renderWaitlistOffer(
      {
        salonName: 'Klipp',
        customerName: 'Vera',
        startTime: new Date('2026-12-04T13:30:00.000Z'),
        endTime: new Date('2026-12-04T14:15:00.000Z'),
        timezone: 'Europe/Oslo',
        services: ['Dameklipp'],
        staffName: 'Ola',
        holdMinutes: 15,
        expiresAt: new Date('2026-12-04T09:20:00.000Z'),
        price: 45000,
        currency: 'NOK',
        acceptUrl: 'https://x',
      },
      'en',
    );
    expect(offer.text).to.equal(
      'Hi Vera! A time has become free at Klipp: Dameklipp with Ola on Friday 4 December, 14:30–15:15 (Oslo time), kr 450. We hold the time for you until 10:20 (15 minutes). Book here: https://x',
    );
  });
  it('when a waitlist offer goes out then it names the price and the clock time it is held until, held for one or offered to several', () => {
    const offer = {
      salonName: 'Klipp',
      customerName: 'Vera',
      startTime: new Date('2026-12-04T13:30:00.000Z'),
      endTime: new Date('2026-12-04T14:15:00.000Z'),
      timezone: 'Europe/Oslo',
      services: ['Dameklipp'],
      staffName: null,
      holdMinutes: 15,
      expiresAt: new Date('2026-12-04T09:20:00.000Z'),
      price: 45050,
      currency: 'NOK',
      acceptUrl: 'https://x',
    };
    expect(renderWaitlistOffer(offer, 'nb').text)
      .to.contain('Dameklipp fredag 4. desember kl. 14:30–15:15, 450,50 kr.')
      .and.contain('Vi holder timen for deg til kl. 10:20 (15 minutter).');
    expect(renderWaitlistOffer({ ...offer, holdMinutes: null }, 'nb').text).to.contain('den første som bestiller innen kl. 10:20 får timen.');
    expect(renderWaitlistOffer({ ...offer, holdMinutes: null }, 'en').text).to.contain('the first to book by 10:20 gets it.');
  });
  it('when a deposit requested later is asked for or reminded then the message names the amount, the deadline and the link, in both languages', () => {
    const request = { amount: 20000, currency: 'NOK', deadline: new Date('2026-12-02T13:30:00.000Z') };
    const asked = renderBookingMessage('DEPOSIT_REQUESTED', { ...facts, depositRequest: request, manageUrl: 'https://salong.no/x' });
    expect(asked.text).to.contain('200 kr').and.contain('onsdag 2. desember kl. 14:30').and.contain('Vipps').and.contain('https://salong.no/x');
    const reminded = renderBookingMessage('DEPOSIT_REMINDER', { ...facts, depositRequest: request, manageUrl: 'https://salong.no/x' }, 'en');
    expect(reminded.text).to.contain('is not paid yet').and.contain('Wednesday 2 December at 14:30').and.contain('https://salong.no/x');
  });
  it('when a booking owes its deposit later then its received and confirmation messages say when it is asked for and by when it must be paid', () => {
    const depositLater = { amount: 20000, currency: 'NOK', requestAt: new Date('2026-11-28T13:30:00.000Z'), deadline: new Date('2026-12-02T13:30:00.000Z') };
    for (const kind of ['RECEIVED', 'CONFIRMED'] as const) {
      expect(renderBookingMessage(kind, { ...facts, depositLater }).text, kind)
        .to.contain('Depositumet på 200 kr betaler du senere')
        .and.contain('lørdag 28. november kl. 14:30')
        .and.contain('onsdag 2. desember kl. 14:30');
    }
    expect(renderBookingMessage('CONFIRMED', { ...facts, depositLater }, 'en').text).to.contain('You pay the deposit of kr 200 later');
    expect(renderBookingMessage('CONFIRMED', facts).text).to.not.contain('senere');
  });
});
