// The customer's own booking page, `/<slug>/bookings/<id>?token=...` (the confirmation after
// booking, and the link in every message): the details, an add-to-calendar file, moving it to
// another time (move-section.ts), and cancelling with what it would cost shown first (the same
// preview as the salon's cancel-preview). Moving and cancelling post forms, so the page needs no
// JavaScript in either booking page version.
import type { Request, Response } from 'express';
import type { PagesContext } from './context';
import { html, type Html } from './html';
import { salonBySlug, salonView, type SalonView } from './salon';
import { sendPage } from './layout';
import { notFoundPage } from './booking-page';
import { errorMessage, t, type MessageKey } from '../../web/shared/i18n';
import { formatLongDay, formatMoney, formatTime, formatDay, formatDayTime, localDateOf } from '../../web/shared/format';
import { AppError } from '../../domain/errors';
import { getPublicBooking } from '../../domain/booking/booking-query.service';
import { cancelPublicBooking, guestCancelPreview, type CancelPreviewDto } from '../../domain/booking/booking-cancel.service';
import { recordPublicBookingPromise } from '../../domain/booking/booking-promise.service';
import { canPromise } from '../../domain/booking/booking-reminder.rules';
import { nowOf } from '../../domain/time/clock';
import type { PublicBookingDto } from '../../domain/booking/booking-public.dto';
import { guestBooking } from '../../domain/booking/booking-access.service';
import { addressLine, bookingCalendar } from '../../domain/booking/booking-calendar.service';
import { bookingCalendarPath, manageLinkPath } from '../../domain/booking/manage-link.service';
import {
  cancelledDeposit,
  requestedDeposit,
  takenDeposit,
  unpaidDeposit,
  type CancelledDeposit,
  type LaterDeposit,
} from '../../domain/payments/deposit-view.service';
import { publicPayment } from '../../domain/payments/payment.service';
import { moveForCustomer } from '../../domain/booking/booking-move.service';
import { isMovableByCustomer, moveQueryOf, moveSection, type MoveQuery } from './move-section';
import { salonContact } from './salon-contact';

/** What the cancelled page says the cancellation did with the deposit. */
const REFUND_TEXT: Record<CancelledDeposit['kind'], MessageKey> = { REFUNDED: 'cancelledRefunded', RELEASED: 'cancelledReleased', KEPT: 'cancelledKept' };
import type { PublicTenant } from '../../domain/public/public-portal.repository';
import { seriesOfTheseBookings } from '../../domain/series/series.service';
import type { SeriesDto } from '../../domain/series/series.dto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function tokenOf(source: unknown): string | undefined {
  return typeof source === 'string' && source.length > 0 && source.length <= 200 ? source : undefined;
}

interface Found {
  tenant: PublicTenant;
  booking: PublicBookingDto;
  token: string;
}

/** The salon and the booking the token opens; undefined for a wrong id, slug or token (one 404 for all). */
async function findBooking(ctx: PagesContext, slug: string, id: string, token: string | undefined): Promise<Found | undefined> {
  if (!token || !UUID.test(id)) return undefined;
  const tenant = await salonBySlug(ctx.deps, slug);
  if (!tenant) return undefined;
  try {
    return { tenant, booking: await getPublicBooking(ctx.bookings, tenant, id, { token }), token };
  } catch (err) {
    if (err instanceof AppError && err.code === 'BOOKING_NOT_FOUND') return undefined;
    throw err;
  }
}

/**
 * Cancelling takes two steps (docs/rules/booking-page.md#the-manage-page): the terms and a link,
 * then (`&cancel=1`, or again after a refused post) the question with the day and time, the reason
 * and the button that cancels, beside one that keeps the appointment. Links and a form: keyboard
 * and no-script alike; the question takes the focus.
 */
function cancelSection(view: SalonView, found: Found, preview: CancelPreviewDto, confirming: boolean, error?: string): Html {
  const { lang, locale } = view;
  const { booking, token } = found;
  const zone = booking.displaySnapshot.timezone;
  const currency = booking.currency;
  const until = `${formatDay(preview.freeCancellationUntil, zone, locale)} ${formatTime(preview.freeCancellationUntil, zone, locale)}`;
  if (!preview.cancellable)
    return html`<section class="card" aria-labelledby="cancel-heading">
      <h2 id="cancel-heading">${t(lang, 'cancelHeading')}</h2>
      <p>${t(lang, 'notCancellable')}</p>
      ${salonContact(lang, found.tenant)}
    </section>`;
  if (!preview.withinFreeWindow) {
    return html`<section class="card" aria-labelledby="cancel-heading">
      <h2 id="cancel-heading">${t(lang, 'cancelHeading')}</h2>
      <p>
        ${t(lang, 'windowClosed', { when: until })}${preview.deposit === 'NONE' ? '' : ` ${t(lang, 'windowClosedDeposit', { amount: formatMoney(preview.depositAmount, currency, locale) })}`}
      </p>
      ${salonContact(lang, found.tenant)}
    </section>`;
  }
  const cost: MessageKey = preview.deposit === 'CAPTURED' ? 'refundFull' : preview.deposit === 'AUTHORIZED' ? 'releaseHold' : 'noDeposit';
  const amount = formatMoney(preview.deposit === 'CAPTURED' ? preview.refundAmount : preview.depositAmount, currency, locale);
  const terms = html`<p id="cancel-terms">${t(lang, 'freeUntil', { when: until })} ${t(lang, cost, { amount })}</p>`;
  const manage = manageLinkPath(view.tenant.slug, booking.id, token) + (lang === 'en' ? '&lang=en' : '');
  if (!confirming && !error)
    return html`<section class="card" aria-labelledby="cancel-heading">
      <h2 id="cancel-heading">${t(lang, 'cancelHeading')}</h2>
      ${terms}
      <p><a class="button" href="${manage}&cancel=1#cancel-question" aria-describedby="cancel-terms">${t(lang, 'cancelButton')}</a></p>
    </section>`;
  const when = `${formatLongDay(booking.startTime, zone, locale)}, ${formatTime(booking.startTime, zone, locale)}`;
  return html`<section class="card" aria-labelledby="cancel-heading">
    <h2 id="cancel-heading">${t(lang, 'cancelHeading')}</h2>
    <p id="cancel-question" tabindex="-1" autofocus><strong>${t(lang, 'cancelConfirm', { when })}</strong></p>
    ${terms}
    <form method="post" action="/${view.tenant.slug}/bookings/${booking.id}/cancel">
      <input type="hidden" name="token" value="${token}" /><input type="hidden" name="lang" value="${lang}" />
      <div class="field">
        <label for="cancel-reason">${t(lang, 'cancelReason')}</label><textarea id="cancel-reason" name="reason" rows="2" maxlength="500"></textarea>
      </div>
      <div class="error-slot" role="alert">${error ? html`<p class="error">${error}</p>` : ''}</div>
      <button type="submit" aria-describedby="cancel-question cancel-terms">${t(lang, 'cancelYes')}</button>
      <a class="button" href="${manage}">${t(lang, 'cancelNo')}</a>
    </form>
  </section>`;
}

/** The standing appointment the booking belongs to: its interval and next dates (docs/rules/series.md#seen-by-the-customer). */
function seriesSection(view: SalonView, series: SeriesDto | undefined, zone: string): Html | '' {
  if (!series) return '';
  const { lang, locale } = view;
  const every = series.intervalWeeks === 1 ? t(lang, 'seriesEveryWeek') : t(lang, 'seriesEvery', { weeks: series.intervalWeeks });
  const next = series.nextDates.length
    ? html`<p>${t(lang, 'seriesNext')}:</p>
        <ul role="list" class="series-dates">
          ${series.nextDates.map((d) => html`<li><time datetime="${d}">${formatLongDay(d, zone, locale)}, ${formatTime(d, zone, locale)}</time></li>`)}
        </ul>`
    : '';
  return html`<section class="card" aria-labelledby="series-heading">
    <h2 id="series-heading">${t(lang, 'seriesHeading')}</h2>
    <p>${series.status === 'ACTIVE' ? every : t(lang, 'seriesEnded')}</p>
    ${next}
  </section>`;
}

/**
 * The customer's promise to come (docs/rules/reminders.md#promising-to-come): a button while the
 * booking is ahead and not promised, a note once promised; nothing once it is cancelled (a promise to
 * come to a cancelled appointment says nothing true).
 */
function promiseSection(ctx: PagesContext, view: SalonView, found: Found, error?: string): Html | '' {
  const { lang } = view;
  const { booking, token } = found;
  if (booking.status === 'CANCELLED') return '';
  if (booking.promisedAt)
    return html`<section class="card" aria-labelledby="promise-heading">
      <h2 id="promise-heading">${t(lang, 'promiseHeading')}</h2>
      <p class="success" id="promised-note">${t(lang, 'promisedNote')}</p>
    </section>`;
  if (!canPromise(booking, nowOf(ctx.bookings).getTime())) return '';
  return html`<section class="card" aria-labelledby="promise-heading">
    <h2 id="promise-heading">${t(lang, 'promiseHeading')}</h2>
    <p id="promise-prompt">${t(lang, 'promisePrompt')}</p>
    <form method="post" action="/${view.tenant.slug}/bookings/${booking.id}/promise">
      <input type="hidden" name="token" value="${token}" /><input type="hidden" name="lang" value="${lang}" />
      <div class="error-slot" role="alert">${error ? html`<p class="error">${error}</p>` : ''}</div>
      <button type="submit" class="primary" aria-describedby="promise-prompt">${t(lang, 'promiseButton')}</button>
    </form>
  </section>`;
}

async function renderManage(
  ctx: PagesContext,
  req: Request,
  res: Response,
  found: Found,
  options: { status?: number; error?: string; promiseError?: string; moveError?: string; move?: MoveQuery } = {},
): Promise<void> {
  const view = await salonView(ctx.deps, req, res, found.tenant, `/${found.tenant.slug}`);
  const { lang, locale } = view;
  const { booking, token } = found;
  const preview = await guestCancelPreview(ctx.bookings, found.tenant, booking.id, { token });
  const zone = booking.displaySnapshot.timezone;
  const series = (await seriesOfTheseBookings(ctx.deps, [{ id: booking.id, timezone: zone }])).get(booking.id);
  const currency = booking.currency;
  const justBooked = req.query.new === '1' && booking.status !== 'CANCELLED';
  const justCancelled = req.query.cancelled === '1' && booking.status === 'CANCELLED';
  const justMoved = req.query.moved === '1' && booking.status !== 'CANCELLED';
  const manageUrl = `${ctx.deps.config.publicBaseUrl}${manageLinkPath(found.tenant.slug, booking.id, token)}`;
  // what the customer must know about the deposit: still to pay (and until when the time is held), or what the cancellation did with it
  const row = await guestBooking(ctx.bookings, found.tenant, booking.id, { token });
  const [unpaid, refunded, later, taken] = await Promise.all([
    unpaidDeposit(ctx.deps.knex, row),
    cancelledDeposit(ctx.deps.knex, row),
    requestedDeposit(ctx.deps.knex, row),
    takenDeposit(ctx.deps.knex, row),
  ]);
  const statusText = unpaid ? t(lang, 'statusPENDING_DEPOSIT') : t(lang, `status${booking.status}` as MessageKey);
  const depositLine = unpaid
    ? html`<p>
          ${t(lang, 'depositUnpaid', { amount: formatMoney(unpaid.amount, unpaid.currency, locale), when: unpaid.heldUntil ? formatDayTime(unpaid.heldUntil, zone, lang, locale) : '' })}
        </p>
        <p><a class="button primary" href="/payments/${unpaid.paymentId}/return">${t(lang, 'depositPay')}</a></p>`
    : refunded
      ? html`<p>${t(lang, REFUND_TEXT[refunded.kind], { amount: formatMoney(refunded.amount, refunded.currency, locale) })}</p>`
      : later
        ? laterDepositLine(view, found, later)
        : taken
          ? html`<p>${t(lang, taken.state === 'PAID' ? 'depositPaid' : 'depositReserved', { amount: formatMoney(taken.amount, taken.currency, locale) })}</p>`
          : '';
  // the confirmation and the cancelled page take the focus on their heading, so a screen reader starts there
  const focus = justBooked || justCancelled || justMoved ? html` autofocus` : '';
  const body = html`<section aria-labelledby="booking-heading">
      <h2 id="booking-heading" tabindex="-1" ${focus}>${justBooked ? t(lang, 'thanks') : t(lang, 'yourAppointment', { salon: found.tenant.name })}</h2>
      <div role="status">
        ${justCancelled ? html`<p class="success">${t(lang, 'cancelled')}</p>` : ''}${justMoved ? html`<p class="success">${t(lang, 'moved')}</p>` : ''}${booking.status === 'CANCELLED' || unpaid || later || taken ? depositLine : ''}
      </div>
      <div class="card">
        <dl>
          <dt>${t(lang, 'status')}</dt>
          <dd>${statusText}</dd>
          <dt>${t(lang, 'when')}</dt>
          <dd>
            ${formatLongDay(booking.startTime, zone, locale)}, ${formatTime(booking.startTime, zone, locale)}–${formatTime(booking.endTime, zone, locale)}
          </dd>
          <dt>${t(lang, 'services')}</dt>
          <dd>
            <ul role="list">
              ${booking.items.map((i) => html`<li>${i.serviceName}${i.resourceName ? ` (${t(lang, 'withStaff', { name: i.resourceName })})` : ''} · ${formatMoney(i.price, currency, locale)}</li>`)}
            </ul>
          </dd>
          <dt>${t(lang, 'total')}</dt>
          <dd>${formatMoney(booking.totalAmount, currency, locale)}</dd>
          ${
            addressLine(found.tenant.address)
              ? html`<dt>${t(lang, 'address')}</dt>
                  <dd>${addressLine(found.tenant.address)}</dd>`
              : ''
          }
        </dl>
        <p class="tz-note">${t(lang, 'timeZoneNote', { zone })}</p>
        ${booking.status !== 'CANCELLED' ? html`<p><a class="button" href="${bookingCalendarPath(found.tenant.slug, booking.id, token)}" download="booking.ics">${t(lang, 'addToCalendar')}</a></p>` : ''}
        <p>${t(lang, 'manageLink')}:<br /><a class="manage-link" href="${manageUrl}">${manageUrl}</a></p>
        <p class="hint">${t(lang, 'manageHint')}</p>
      </div>
    </section>
    ${seriesSection(view, series, zone)} ${promiseSection(ctx, view, found, options.promiseError)}
    ${isMovableByCustomer(booking) ? await moveSection(ctx, view, found.tenant, booking, token, preview, options.move ?? moveQueryOf(req.query), options.moveError) : ''}
    ${booking.status === 'CANCELLED' ? '' : cancelSection(view, found, preview, req.query.cancel === '1', options.error)}
    <p><a class="button primary" href="/${found.tenant.slug}">${t(lang, 'bookAgain')}</a></p>`;
  sendPage({
    req,
    res,
    assets: ctx.assets()!,
    salon: view,
    lang,
    title: `${t(lang, 'yourAppointment', { salon: found.tenant.name })}`,
    body,
    status: options.status,
  });
}

/** A deposit owed later (docs/rules/payments.md#deposits-at-any-distance): when it is asked for, or the form that pays it. */
function laterDepositLine(view: SalonView, found: Found, later: LaterDeposit): Html {
  const { lang, locale } = view;
  const zone = found.booking.displaySnapshot.timezone;
  const amount = formatMoney(later.amount, later.currency, locale);
  const deadline = formatDayTime(later.deadline, zone, lang, locale);
  if (later.state === 'SCHEDULED')
    return html`<p>${t(lang, 'depositScheduled', { amount, request: formatDayTime(later.requestAt, zone, lang, locale), deadline })}</p>`;
  return html`<p>${t(lang, 'depositRequested', { amount, deadline })}</p>
    <form method="post" action="/${found.tenant.slug}/bookings/${found.booking.id}/deposit">
      <input type="hidden" name="token" value="${found.token}" />${lang === 'en' ? html`<input type="hidden" name="lang" value="en" />` : ''}
      <button type="submit" class="primary">${t(lang, 'depositPay')}</button>
    </form>`;
}

/** POST /<slug>/bookings/<id>/deposit (form: token): pays a deposit requested later at the salon's provider (a new checkout when none is open). */
export async function payDepositFromForm(ctx: PagesContext, req: Request, res: Response): Promise<void> {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const found = await findBooking(ctx, String(req.params.slug), String(req.params.id), tokenOf(body.token));
  if (!found) return notFoundPage(ctx, req, res);
  try {
    const payment = await publicPayment(ctx.payments, found.tenant, found.booking.id, { token: found.token });
    if (payment.redirectUrl) return void res.redirect(303, payment.redirectUrl);
    res.redirect(303, `/payments/${payment.paymentId}/return`);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const lang = req.query.lang === 'en' || body.lang === 'en' ? 'en' : 'nb';
    return renderManage(ctx, req, res, found, { status: err.status >= 500 ? 503 : err.status, error: errorMessage(lang, err.code) });
  }
}

/** GET /<slug>/bookings/<id>?token=... */
export async function managePage(ctx: PagesContext, req: Request, res: Response): Promise<void> {
  const found = await findBooking(ctx, String(req.params.slug), String(req.params.id), tokenOf(req.query.token));
  if (!found) return notFoundPage(ctx, req, res);
  await renderManage(ctx, req, res, found);
}

/** POST /<slug>/bookings/<id>/cancel (form: token, reason): the same self-cancel as the public API. */
export async function cancelFromForm(ctx: PagesContext, req: Request, res: Response): Promise<void> {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const found = await findBooking(ctx, String(req.params.slug), String(req.params.id), tokenOf(body.token));
  if (!found) return notFoundPage(ctx, req, res);
  const reason = typeof body.reason === 'string' && body.reason.trim() ? body.reason.trim().slice(0, 500) : undefined;
  try {
    await cancelPublicBooking(ctx.bookings, found.tenant, found.booking.id, { token: found.token, reason });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const lang = req.query.lang === 'en' || body.lang === 'en' ? 'en' : 'nb';
    return renderManage(ctx, req, res, found, { status: err.status >= 500 ? 503 : err.status, error: errorMessage(lang, err.code) });
  }
  res.redirect(303, `${manageLinkPath(found.tenant.slug, found.booking.id, found.token)}&cancelled=1`);
}

/** POST /<slug>/bookings/<id>/promise (form: token): the same promise as the public API (LINK). */
export async function promiseFromForm(ctx: PagesContext, req: Request, res: Response): Promise<void> {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const found = await findBooking(ctx, String(req.params.slug), String(req.params.id), tokenOf(body.token));
  if (!found) return notFoundPage(ctx, req, res);
  try {
    await recordPublicBookingPromise(ctx.bookings, found.tenant, found.booking.id, { token: found.token });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const lang = req.query.lang === 'en' || body.lang === 'en' ? 'en' : 'nb';
    return renderManage(ctx, req, res, found, { status: err.status >= 500 ? 503 : err.status, promiseError: errorMessage(lang, err.code) });
  }
  res.redirect(303, `${manageLinkPath(found.tenant.slug, found.booking.id, found.token)}&promised=1`);
}

/** POST /<slug>/bookings/<id>/move (form: token, time): the same move as the public API; a refusal shows the week again with why. */
export async function moveFromForm(ctx: PagesContext, req: Request, res: Response): Promise<void> {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const found = await findBooking(ctx, String(req.params.slug), String(req.params.id), tokenOf(body.token));
  if (!found) return notFoundPage(ctx, req, res);
  const lang = req.query.lang === 'en' || body.lang === 'en' ? 'en' : 'nb';
  const time = typeof body.time === 'string' ? body.time : '';
  try {
    await moveForCustomer(ctx.bookings, found.tenant, found.booking.id, time, { proof: { token: found.token } });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const date = time ? localDateOfSafe(time, found.booking.displaySnapshot.timezone) : null;
    return renderManage(ctx, req, res, found, {
      status: err.status >= 500 ? 503 : err.status,
      moveError: errorMessage(lang, err.code),
      move: { open: true, week: null, date },
    });
  }
  res.redirect(303, `${manageLinkPath(found.tenant.slug, found.booking.id, found.token)}&moved=1${lang === 'en' ? '&lang=en' : ''}`);
}

/** The salon-local date of a posted time, or null when it is no time at all. */
function localDateOfSafe(time: string, zone: string): string | null {
  return Number.isNaN(Date.parse(time)) ? null : localDateOf(time, zone);
}

/** GET /<slug>/bookings/<id>/calendar.ics?token=...: the booking as a calendar file (same UID and SEQUENCE as its e-mails). */
export async function calendarFile(ctx: PagesContext, req: Request, res: Response): Promise<void> {
  const found = await findBooking(ctx, String(req.params.slug), String(req.params.id), tokenOf(req.query.token));
  if (!found) return notFoundPage(ctx, req, res);
  const { booking, token, tenant } = found;
  const row = await guestBooking(ctx.bookings, tenant, booking.id, { token });
  const staff = [...new Set(booking.items.map((i) => i.resourceName).filter((n): n is string => !!n))];
  const ics = bookingCalendar(
    {
      bookingId: booking.id,
      sequence: row.calendarSequence,
      language: row.language,
      status: booking.status,
      start: new Date(booking.startTime),
      end: new Date(booking.endTime),
      timezone: booking.displaySnapshot.timezone,
      salonName: tenant.name,
      location: addressLine(tenant.address),
      services: booking.items.map((i) => i.serviceName),
      staffName: staff.join(', ') || null,
      manageUrl: `${ctx.deps.config.publicBaseUrl}${manageLinkPath(tenant.slug, booking.id, token)}`,
      uidDomain: ctx.deps.config.platformDomain,
    },
    'PUBLISH',
  );
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Disposition', 'attachment; filename="booking.ics"');
  res.type('text/calendar; charset=utf-8').send(ics);
}
