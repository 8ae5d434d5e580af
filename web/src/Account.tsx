// Sign-in for customers (to use a voucher and see their bookings), when the platform offers it.
import { useState } from 'preact/hooks';
import { errorMessage, t } from '../shared/i18n';
import { formatLocalDate, formatTime, localDateOf } from '../shared/format';
import { api, call, type ApiProblem } from './api';
import type { components } from '../generated/api';
import type { PageContext } from './page-context';

type CustomerBooking = components['schemas']['CustomerBooking'];

export function Account({ ctx, onSignIn }: { ctx: PageContext; onSignIn: () => void }) {
  const { boot, lang, locale } = ctx;
  const [bookings, setBookings] = useState<CustomerBooking[] | null>(null);
  const [open, setOpen] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  if (!boot.signIn) return null;
  const customer = boot.customer;

  if (!customer) {
    return (
      <div class="account">
        <p>{t(lang, 'signInBenefit')}</p>
        <button type="button" onClick={onSignIn}>
          {t(lang, 'signIn')}
        </button>
      </div>
    );
  }

  const toggle = async () => {
    const next = !open;
    setOpen(next);
    if (!next || bookings) return;
    const result = await call(() => api.GET('/customer/me/bookings', { params: { query: { limit: 20 } } }));
    if (result.ok) setBookings(result.data.data.filter((b) => b.tenantSlug === boot.slug));
    else setProblem(result.problem);
  };
  const signOut = async () => {
    await call(() => api.POST('/auth/customer/logout', {}));
    location.reload();
  };

  return (
    <div class="account">
      <p>{t(lang, 'signedInAs', { name: customer.name ?? customer.email ?? '' })}</p>
      <button type="button" aria-expanded={open} aria-controls="my-bookings" onClick={() => void toggle()}>
        {t(lang, 'myBookings')}
      </button>
      <button type="button" onClick={() => void signOut()}>
        {t(lang, 'signOut')}
      </button>
      {open && (
        <div id="my-bookings" class="my-bookings" aria-live="polite">
          {problem && <p class="error">{errorMessage(lang, problem.code)}</p>}
          {!bookings && !problem && <p>{t(lang, 'loading')}</p>}
          {bookings && bookings.length === 0 && <p>{t(lang, 'noBookings')}</p>}
          {bookings && bookings.length > 0 && (
            <ul role="list">
              {bookings.map((b) => (
                <li key={b.id}>
                  {t(lang, 'atUntil', {
                    day: formatLocalDate(localDateOf(b.startTime, b.tenantTimezone), locale),
                    time: formatTime(b.startTime, b.tenantTimezone, locale),
                    end: formatTime(b.endTime, b.tenantTimezone, locale),
                  })}{' '}
                  · {b.items.map((i) => i.serviceName).join(', ')} · {t(lang, `status${b.status}` as 'statusCONFIRMED')}
                  {b.series && <SeriesNote series={b.series} zone={b.tenantTimezone} ctx={ctx} />}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}

/** The standing appointment a booking starts or belongs to: its interval and next dates (docs/rules/series.md#seen-by-the-customer). */
function SeriesNote({ series, zone, ctx }: { series: NonNullable<CustomerBooking['series']>; zone: string; ctx: PageContext }) {
  const { lang, locale } = ctx;
  const every = series.intervalWeeks === 1 ? t(lang, 'seriesEveryWeek') : t(lang, 'seriesEvery', { weeks: series.intervalWeeks });
  const next = series.nextDates.map((d) => `${formatLocalDate(localDateOf(d, zone), locale)} ${formatTime(d, zone, locale)}`).join(', ');
  return (
    <p class="series-note">
      {t(lang, 'seriesHeading')}: {series.status === 'ACTIVE' ? every : t(lang, 'seriesEnded')}
      {next && ` ${t(lang, 'seriesNext')}: ${next}.`}
    </p>
  );
}
