// The standing appointments' and rebooking nudges' texts in both languages
// (docs/rules/messages.md#language): the customer's in the booking's language, links opening the
// pages in it.
import { expect } from 'chai';
import {
  nudgeUnsubscribeUrl,
  rebookUrl,
  renderRebookingNudge,
  renderSeriesMessage,
  renderSeriesSkippedToSalon,
} from '../../../domain/notifications/series-messages.rules';

describe('standing appointment and rebooking nudge messages (Norwegian and English)', () => {
  const facts = {
    salonName: 'Klipp & Stell',
    customerName: 'Kari',
    timezone: 'Europe/Oslo',
    services: ['Herreklipp'],
    staffName: 'Ola',
    plannedStart: new Date('2026-12-04T09:00:00.000Z'),
    startTime: new Date('2026-12-03T09:00:00.000Z'),
    toleranceDays: 2,
    manageUrl: 'https://book.example.no/klipp/bookings/6b0c?token=abc&lang=en',
  };

  it('when an occurrence could not be booked then the customer is told how to reach the salon: its phone, else its e-mail, else its name only', () => {
    const phone = renderSeriesMessage('SKIPPED', { ...facts, salonContact: { phone: '+4722334455', email: 'post@klipp.no' } }, 'nb');
    expect(phone.text).to.contain('Ring Klipp & Stell på +47 22 33 44 55 om du vil ha en annen tid.');
    const email = renderSeriesMessage('SKIPPED', { ...facts, salonContact: { phone: null, email: 'post@klipp.no' } }, 'en');
    expect(email.text).to.contain('Please write to Klipp & Stell at post@klipp.no if you would like another time.');
    expect(renderSeriesMessage('SKIPPED', facts, 'nb').text).to.contain('Ta kontakt med Klipp & Stell om du vil ha en annen tid.');
  });

  it('when an occurrence moved then the customer reads the planned and the booked time and the manage link, in Norwegian or English', () => {
    const nb = renderSeriesMessage('MOVED', facts, 'nb');
    expect(nb.subject).to.equal('Din faste time hos Klipp & Stell er flyttet');
    expect(nb.text)
      .to.contain('Herreklipp hos Ola')
      .and.contain('fredag 4. desember kl. 10:00')
      .and.contain('torsdag 3. desember kl. 10:00')
      .and.contain(`Se eller avbestill timen: ${facts.manageUrl}`);
    const en = renderSeriesMessage('MOVED', facts, 'en');
    expect(en.subject).to.equal('Your standing appointment at Klipp & Stell has moved');
    expect(en.text)
      .to.contain('Hi Kari!')
      .and.contain('Herreklipp with Ola')
      .and.contain('Friday 4 December at 10:00')
      .and.contain('Thursday 3 December at 10:00')
      .and.contain(`See or cancel the appointment: ${facts.manageUrl}`);
    expect(en.text).to.not.match(/ kl\. | hos /);
  });

  it('when an occurrence was skipped then the customer reads the tolerance in their language and the salon in its own', () => {
    expect(renderSeriesMessage('SKIPPED', facts, 'en').text)
      .to.contain('no free time within 2 days before or after')
      .and.contain('Friday 4 December at 10:00');
    expect(renderSeriesMessage('SKIPPED', facts, 'nb').text).to.contain('ingen ledig tid innen 2 dager');
    const salon = { ...facts, customerPhone: '+4741234567' };
    expect(renderSeriesSkippedToSalon(salon, 'en').subject).to.equal('Standing appointment not booked: Kari Friday 4 December at 10:00');
    expect(renderSeriesSkippedToSalon(salon, 'en').text).to.contain('Kari (+4741234567)');
    expect(renderSeriesSkippedToSalon(salon, 'nb').subject).to.equal('Fast time ikke booket: Kari fredag 4. desember kl. 10:00');
  });

  it('when a nudge is written in English then its links open the pages in English; in Norwegian they carry no lang', () => {
    const book = (language: 'nb' | 'en') => rebookUrl('https://book.example.no/', 'klipp', ['s1', 's2'], 'r1', language);
    expect(book('nb')).to.equal('https://book.example.no/klipp?services=s1%2Cs2&staff=r1');
    expect(book('en')).to.equal('https://book.example.no/klipp?services=s1%2Cs2&staff=r1&lang=en');
    expect(nudgeUnsubscribeUrl('https://book.example.no', 'klipp', 'c1', 't.k', 'en')).to.equal(
      'https://book.example.no/klipp/nudges/unsubscribe?customer=c1&token=t.k&lang=en',
    );
    expect(nudgeUnsubscribeUrl('https://book.example.no', 'klipp', 'c1', 't.k', 'nb')).to.not.contain('lang=');
    const nudge = {
      salonName: 'Klipp & Stell',
      customerName: 'Kari',
      services: ['Herreklipp'],
      staffName: 'Ola',
      weeks: 5,
      bookUrl: book('en'),
      unsubscribeUrl: 'https://u',
    };
    const en = renderRebookingNudge(nudge, 'en');
    expect(en.subject).to.equal('Time for your next visit to Klipp & Stell?');
    expect(en.text).to.equal(
      `Hi Kari! It is 5 weeks since your Herreklipp with Ola at Klipp & Stell. Book your next appointment here: ${book('en')} To stop such reminders: https://u`,
    );
    expect(renderRebookingNudge(nudge, 'nb').subject).to.equal('Tid for neste besøk hos Klipp & Stell?');
  });
});
