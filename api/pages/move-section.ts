// The manage page's "move the appointment" (docs/rules/booking.md#moving-a-booking): until the salon's
// cancellationHours before the start, a link opens a week of days with the times free for the same
// services and the same staff choice (the booking's own time counts as free), and a form posts the
// chosen time to `/<slug>/bookings/<id>/move`, the same move as the public API's. Afterwards, or
// once the customer has moved it as often as a booking may be moved, it says to call the salon. Plain links and forms, so it works without JavaScript in both page versions.
import { assertShownDate } from './page-dates';
import { html, type Html } from './html';
import type { PagesContext } from './context';
import type { SalonView } from './salon';
import { salonRules } from './catalogue';
import { t, type MessageKey } from '../../web/shared/i18n';
import { addDays, formatDay, formatLocalDate, formatTime, localDateOf, isLocalDate, mondayOf, weekOf } from '../../web/shared/format';
import { dayBadge, dayState, dayStateText, isChoosable } from '../../web/shared/days';
import { availabilityForDates } from '../../domain/availability/availability.service';
import type { PublicBookingDto } from '../../domain/booking/booking-public.dto';
import type { CancelPreviewDto } from '../../domain/booking/booking-cancel.service';
import type { PublicTenant } from '../../domain/public/public-portal.repository';
import { manageLinkPath } from '../../domain/booking/manage-link.service';
import { customerMayMoveAgain } from '../../domain/booking/booking-move.service';
import { nowOf } from '../../domain/time/clock';
import { salonContact } from './salon-contact';

/** What the manage page's address asks of the move: open, and which week and day. */
export interface MoveQuery {
  open: boolean;
  week: string | null;
  date: string | null;
}

export function moveQueryOf(query: Record<string, unknown>): MoveQuery {
  // a value that is no real date (2027-02-30) is left out, as the booking page leaves it
  const date = (v: unknown) => (isLocalDate(v) ? v : null);
  return { open: query.move === '1', week: date(query.week), date: date(query.date) };
}

/** Bookings the customer may still move: those still to come, not yet arrived (PENDING, CONFIRMED). */
export function isMovableByCustomer(booking: PublicBookingDto): boolean {
  return booking.status === 'PENDING' || booking.status === 'CONFIRMED';
}

function heading(lang: SalonView['lang'], body: Html): Html {
  return html`<section class="card move" aria-labelledby="move-heading">
    <h2 id="move-heading">${t(lang, 'moveHeading')}</h2>
    ${body}
  </section>`;
}

/** The section: closed (call the salon), a link to choose another time, or the week and the chosen day's times. */
export async function moveSection(
  ctx: PagesContext,
  view: SalonView,
  tenant: PublicTenant,
  booking: PublicBookingDto,
  token: string,
  preview: CancelPreviewDto,
  query: MoveQuery,
  error?: string,
): Promise<Html> {
  const { lang, locale } = view;
  const zone = booking.displaySnapshot.timezone;
  const until = `${formatDay(preview.freeCancellationUntil, zone, locale)} ${formatTime(preview.freeCancellationUntil, zone, locale)}`;
  const alert = html`<div class="error-slot" role="alert">${error ? html`<p class="error">${error}</p>` : ''}</div>`;
  if (!preview.withinFreeWindow)
    return heading(
      lang,
      html`<p>${t(lang, 'moveClosed', { when: until })}</p>
        ${salonContact(lang, tenant)} ${alert}`,
    );
  if (!(await customerMayMoveAgain(ctx.deps.knex, tenant.id, booking.id)))
    return heading(
      lang,
      html`<p>${t(lang, 'moveLimit')}</p>
        ${salonContact(lang, tenant)} ${alert}`,
    );
  const manage = manageLinkPath(tenant.slug, booking.id, token) + (lang === 'en' ? '&lang=en' : '');
  if (!query.open) {
    return heading(
      lang,
      html`<p id="move-terms">${t(lang, 'moveUntil', { when: until })}</p>
        ${alert}
        <p><a class="button" href="${manage}&move=1#move-heading" aria-describedby="move-terms">${t(lang, 'moveChoose')}</a></p>`,
    );
  }

  const salon = salonRules(tenant);
  const now = nowOf(ctx.deps);
  const today = localDateOf(now, salon.timezone);
  const last = addDays(today, salon.maxBookingDaysInAdvance);
  assertShownDate(query.week, last);
  assertShownDate(query.date, last);
  const current = localDateOf(booking.startTime, salon.timezone);
  const date = query.date ?? (query.week ? null : current);
  const week = query.week ?? mondayOf(date ?? current);
  const days = weekOf(week).filter((d) => d >= today && d <= last);
  const found = new Map<string, { slots: { start: string }[]; working: boolean }>();
  if (days.length) {
    const items = booking.items.map((i) => ({ serviceId: i.serviceId, resourceId: i.resourceId }));
    try {
      const answer = await availabilityForDates(ctx.deps.knex, tenant, {
        fromDate: days[0],
        toDate: days[days.length - 1],
        items,
        onlineOnly: true,
        now,
        excludeBookingId: booking.id,
      });
      // the time it has now is no move
      for (const d of answer) found.set(d.date, { slots: d.slots.filter((s) => s.start !== booking.startTime), working: d.working });
    } catch {
      // the salon refuses the request (a service or staff member no longer offered): no free times
    }
  }
  const at = (params: { week: string; date?: string }) => `${manage}&move=1&week=${params.week}${params.date ? `&date=${params.date}` : ''}#move-heading`;
  const dayLinks = weekOf(week).map((d) => {
    const { slots, working } = found.get(d) ?? { slots: [], working: false };
    const kind = dayState(d, today, last, working, slots.length);
    const label = t(lang, 'dayButton', { day: formatLocalDate(d, locale), free: dayStateText(lang, kind, slots.length) });
    const inner = html`<span class="dow">${formatLocalDate(d, locale, { weekday: 'short' })}</span
      ><span class="dom">${formatLocalDate(d, locale, { day: 'numeric' })}</span><span class="count">${dayBadge(lang, kind, slots.length)}</span>`;
    const description = html`<span id="move-day-${d}" hidden>${label}</span>`;
    // a full day has no time to move to (its waitlist is joined from the booking page)
    if (!isChoosable(kind) || kind === 'full')
      return html`<li>${description}<span class="day ${kind}" role="link" aria-disabled="true" aria-describedby="move-day-${d}">${inner}</span></li>`;
    const chosen = d === date;
    return html`<li>
      ${description}<a
        class="day ${kind}${chosen ? ' chosen' : ''}"
        href="${at({ week, date: d })}"
        aria-describedby="move-day-${d}"
        ${chosen ? html` aria-current="date"` : ''}
        >${inner}</a
      >
    </li>`;
  });
  const nav = (target: string, enabled: boolean, key: MessageKey, arrowFirst: boolean) => {
    const text = arrowFirst ? html`<span aria-hidden="true">‹ </span>${t(lang, key)}` : html`${t(lang, key)}<span aria-hidden="true"> ›</span>`;
    return enabled ? html`<a class="button" href="${at({ week: target })}">${text}</a>` : html``;
  };
  const prev = addDays(week, -7);
  const next = addDays(week, 7);
  const slots = date ? (found.get(date)?.slots ?? []) : null;
  const times =
    date && slots
      ? html`<form class="times-form" method="post" action="/${tenant.slug}/bookings/${booking.id}/move">
          <input type="hidden" name="token" value="${token}" /><input type="hidden" name="lang" value="${lang}" />
          <fieldset>
            <legend><h3 id="move-times-heading">${t(lang, 'timesHeading', { day: formatLocalDate(date, locale) })}</h3></legend>
            ${
              slots.length === 0
                ? html`<p>${t(lang, 'noTimesDay')}</p>`
                : html`<ul role="list" class="choices">
                    ${slots.map((s, i) => html`<li><input type="radio" id="move-time-${i}" name="time" value="${s.start}" ${i === 0 ? html` required` : ''} /><label for="move-time-${i}">${formatTime(s.start, salon.timezone, locale)}</label></li>`)}
                  </ul>`
            }
          </fieldset>
          ${slots.length ? html`<div class="actions"><button type="submit" class="primary">${t(lang, 'moveButton')}</button></div>` : ''}
        </form>`
      : html`<p class="hint">${t(lang, 'chooseDay')}</p>`;
  return heading(
    lang,
    html`<p id="move-terms">${t(lang, 'moveUntil', { when: until })} ${t(lang, 'moveSame')}</p>
      ${alert}
      <div class="week">
        <div class="week-nav">
          ${nav(prev, week > mondayOf(today), 'previousWeek', true)}
          <p class="week-label">
            ${t(lang, 'weekOf', { from: formatLocalDate(week, locale, { day: 'numeric', month: 'long' }), to: formatLocalDate(addDays(week, 6), locale, { day: 'numeric', month: 'long' }) })}
          </p>
          ${nav(next, next <= last, 'nextWeek', false)}
        </div>
        <ul class="days" role="list">
          ${dayLinks}
        </ul>
      </div>
      ${times}`,
  );
}
