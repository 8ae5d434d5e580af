import { expect } from 'chai';
import { dayBadge, daySentence, dayState, dayStateText } from '../../../web/shared/days';
import { cancellationTerms, freeCancellationUntil } from '../../../web/shared/terms';

describe('the week strip and the terms before "Bestill" (web/shared)', () => {
  it('when a day is past, beyond the window, closed, full or free then it says which, in words and on its button', () => {
    const state = (date: string, working: boolean, free: number) => dayState(date, '2026-12-02', '2026-12-31', working, free);
    expect([
      state('2026-12-01', true, 3),
      state('2027-01-01', true, 3),
      state('2026-12-03', false, 0),
      state('2026-12-03', true, 0),
      state('2026-12-03', true, 2),
    ]).to.deep.equal(['past', 'beyond', 'closed', 'full', 'free']);
    expect(['past', 'closed', 'full', 'free'].map((s) => dayBadge('nb', s as never, 2))).to.deep.equal(['–', 'Stengt', 'Fullt', '2']);
    expect(['past', 'closed', 'full', 'free'].map((s) => dayStateText('en', s as never, 1))).to.deep.equal([
      'the day is over',
      'closed',
      'fully booked',
      '1 free time',
    ]);
  });

  it('when a screen reader reads a day then it hears a whole sentence: capitalised, the date, what the day is', () => {
    expect(daySentence('nb', 'fredag 4. desember', 'full', 0)).to.equal('Fredag 4. desember: alt er tatt.');
    expect(daySentence('en', 'Friday 4 December', 'full', 0)).to.equal('Friday 4 December: fully booked.');
    expect(daySentence('nb', 'lørdag 5. desember', 'free', 3)).to.equal('Lørdag 5. desember: 3 ledige tider.');
  });

  it('when the customer is about to book then the terms say until when cancelling is free and what happens to the deposit, or that free cancellation has ended', () => {
    const base = {
      lang: 'nb' as const,
      start: '2026-12-04T13:30:00.000Z',
      cancellationHours: 24,
      deposit: 10000,
      currency: 'NOK',
      timezone: 'Europe/Oslo',
      locale: 'nb-NO',
    };
    expect(freeCancellationUntil(base.start, 24).toISOString()).to.equal('2026-12-03T13:30:00.000Z');
    expect(cancellationTerms({ ...base, now: new Date('2026-12-03T13:30:00.000Z') }), 'exactly at the deadline is still free').to.deep.equal([
      'Du kan avbestille gratis frem til torsdag 3. desember kl. 14:30.',
      'Avbestiller du innen da, får du depositumet på 100\u00a0kr tilbake; avbestiller du senere, beholder salongen det.',
    ]);
    expect(cancellationTerms({ ...base, now: new Date('2026-12-03T13:30:00.001Z') })).to.deep.equal([
      'Fristen for gratis avbestilling (24 timer før) er allerede passert for denne timen.',
      'Avbestiller du, beholder salongen depositumet på 100\u00a0kr.',
    ]);
    expect(cancellationTerms({ ...base, lang: 'en', locale: 'en-GB', deposit: 0, now: new Date('2026-12-01T00:00:00.000Z') })).to.deep.equal([
      'You can cancel free of charge until Thursday 3 December at 14:30.',
    ]);
  });
});
