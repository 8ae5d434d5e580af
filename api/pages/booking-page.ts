// GET /<slug> (and GET / on the salon's subdomain or custom domain): the booking page. The platform
// setting bookingUiVersion picks v2 (the first view server-rendered, then the interactive bundle
// takes over) or v1 (every step server-rendered; works without JavaScript). v2 without JavaScript
// falls back to the v1 steps after its first form. A salon that takes no bookings gets a page
// saying so; an unknown salon a 404 page.
import { assertShownDate } from './page-dates';
import type { Request, Response } from 'express';
import { html, type Html } from './html';
import type { PagesContext } from './context';
import { salonView, type SalonView } from './salon';
import { sendPage } from './layout';
import { catalogueOf, salonRules, type Catalogue } from './catalogue';
import { stateOf, type BookingState } from './booking-state';
import { contactStep, servicesStep, staffStep, summary, timeStep, waitlistForm, type DayCounts, type Slot } from './booking-steps';
import { WAITLIST_MAX_DAYS } from '../../web/shared/days';
import { jsonScript } from './html';
import { t } from '../../web/shared/i18n';
import { addDays, localDateOf, mondayOf, weekOf } from '../../web/shared/format';
import type { BootData } from '../../web/shared/boot';
import type { PublicTenant } from '../../domain/public/public-portal.repository';
import { isAcceptingBookings } from '../../domain/booking/accepting-bookings.rules';
import { bookingUiVersion } from '../../domain/platform/platform-settings.service';
import { availabilityForDate, availabilityForDates, nextAvailableDate } from '../../domain/availability/availability.service';
import { currentCustomer } from '../../domain/customer-account/customer-auth.service';
import { nowOf } from '../../domain/time/clock';
import { salonContact } from './salon-contact';

type Step = 'services' | 'staff' | 'time' | 'contact';

function stepOf(state: BookingState): Step {
  if (!state.services.length || state.step === 'services') return 'services';
  if (!state.staff || state.step === 'staff') return 'staff';
  return state.time ? 'contact' : 'time';
}

export function notFoundPage(ctx: PagesContext, req: Request, res: Response, lang: SalonView['lang'] = 'nb'): void {
  const assets = ctx.assets();
  if (!assets) return void res.status(404).type('text/plain').send('Not found');
  // no salon to head the page: the page's own heading is its level-one heading
  sendPage({
    req,
    res,
    assets,
    lang,
    title: t(lang, 'notFoundHeading'),
    status: 404,
    body: html`<h1>${t(lang, 'notFoundHeading')}</h1>
      <p>${t(lang, 'notFoundBody')}</p>`,
  });
}

function closedPage(ctx: PagesContext, req: Request, res: Response, view: SalonView): void {
  const { lang } = view;
  sendPage({
    req,
    res,
    assets: ctx.assets()!,
    salon: view,
    lang,
    title: view.tenant.name,
    body: html`<section class="card" aria-labelledby="closed-heading">
      <h2 id="closed-heading">${t(lang, 'closedHeading', { salon: view.tenant.name })}</h2>
      <p>${t(lang, 'closedBody')}</p>
      ${salonContact(lang, view.tenant)}
    </section>`,
  });
}

/** Items of the availability calls: every chosen service, by the chosen person or anyone. */
export function requestedItems(state: BookingState) {
  return state.services.map((serviceId) => ({ serviceId, resourceId: state.staff && state.staff !== 'any' ? state.staff : null }));
}

/** Free times of one salon-local day and whether someone who does the services works then (none outside the booking window or when the salon refuses). */
export async function slotsOf(ctx: PagesContext, tenant: PublicTenant, state: BookingState, date: string): Promise<{ slots: Slot[]; working: boolean }> {
  try {
    const day = await availabilityForDate(ctx.deps.knex, tenant, { date, items: requestedItems(state), onlineOnly: true, now: nowOf(ctx.deps) });
    return { slots: day.slots, working: day.working };
  } catch {
    return { slots: [], working: false };
  }
}

/** Free times of consecutive days and whether each is a working one, from one read of the data (none when the salon refuses). */
async function slotsOfDays(
  ctx: PagesContext,
  tenant: PublicTenant,
  state: BookingState,
  days: readonly string[],
): Promise<Map<string, { slots: Slot[]; working: boolean }>> {
  if (!days.length) return new Map();
  try {
    const found = await availabilityForDates(ctx.deps.knex, tenant, {
      fromDate: days[0],
      toDate: days[days.length - 1],
      items: requestedItems(state),
      onlineOnly: true,
      now: nowOf(ctx.deps),
    });
    return new Map(found.map((d) => [d.date, { slots: d.slots, working: d.working }]));
  } catch {
    return new Map();
  }
}

async function renderTimeStep(ctx: PagesContext, view: SalonView, catalogue: Catalogue, state: BookingState) {
  const tenant = view.tenant;
  const salon = salonRules(tenant);
  const today = localDateOf(nowOf(ctx.deps), salon.timezone);
  const last = addDays(today, salon.maxBookingDaysInAdvance);
  assertShownDate(state.week, last);
  assertShownDate(state.date, last);
  let date = state.date;
  if (!date && !state.week) {
    const found = await nextAvailableDate(ctx.deps.knex, tenant, {
      items: requestedItems(state),
      fromDate: addDays(today, -1),
      maxDaysAhead: Math.min(90, salon.maxBookingDaysInAdvance + 1),
      onlineOnly: true,
      now: nowOf(ctx.deps),
    });
    date = found.date;
    // nothing free ahead with this staff member and these services: the waitlist over the coming days
    if (!date) {
      const wish = { fromDate: today, toDate: addDays(today, Math.min(WAITLIST_MAX_DAYS, salon.maxBookingDaysInAdvance)) };
      return html`<section class="step" aria-labelledby="step-heading">
        <h2 id="step-heading">${t(view.lang, 'stepTime')}</h2>
        <p class="hint">${t(view.lang, 'noTimesAhead', { days: salon.maxBookingDaysInAdvance })}</p>
        ${waitlistForm(view, state, wish)}
      </section>`;
    }
  }
  const week = state.week ?? mondayOf(date!);
  const days = weekOf(week).filter((d) => d >= today && d <= last);
  const found = await slotsOfDays(ctx, tenant, state, days);
  const counts: DayCounts = new Map(days.map((d) => [d, { free: found.get(d)?.slots.length ?? 0, working: found.get(d)?.working ?? false }]));
  const chosen = date ? (found.get(date) ?? (await slotsOf(ctx, tenant, state, date))) : null;
  return timeStep(view, salon, today, { ...state, date, week }, counts, chosen?.slots ?? null, chosen?.working ?? false);
}

async function bootData(ctx: PagesContext, req: Request, view: SalonView, catalogue: Catalogue, state: BookingState): Promise<BootData> {
  const salon = salonRules(view.tenant);
  const oidc = ctx.deps.config.oidc;
  let customer: BootData['customer'] = null;
  if (req.customer) {
    const account = await currentCustomer(ctx.deps.knex, req.customer.accountId).catch(() => null);
    if (account) customer = { name: account.name ?? null, email: account.email ?? null, phone: account.phone ?? null };
  }
  return {
    lang: view.lang,
    pagePath: view.pagePath,
    slug: view.tenant.slug,
    salon,
    services: catalogue.services,
    staff: catalogue.staff,
    today: localDateOf(nowOf(ctx.deps), salon.timezone),
    signIn: oidc ? { issuer: oidc.issuer, clientId: oidc.audiences[0], callbackPath: '/customer-sign-in' } : null,
    customer,
    chosenServices: state.services,
    chosenStaff: state.staff,
  };
}

/**
 * The v2 page's sign-in box as the bundle renders it, so the first view does not move when the
 * script takes over; hidden without JavaScript (class needs-js), where it could not work.
 */
function accountBox(view: SalonView, boot: BootData): Html | '' {
  if (!boot.signIn) return '';
  const { lang } = view;
  if (!boot.customer)
    return html`<div class="account needs-js">
      <p>${t(lang, 'signInBenefit')}</p>
      <button type="button">${t(lang, 'signIn')}</button>
    </div>`;
  return html`<div class="account needs-js">
    <p>${t(lang, 'signedInAs', { name: boot.customer.name ?? boot.customer.email ?? '' })}</p>
    <button type="button">${t(lang, 'myBookings')}</button><button type="button">${t(lang, 'signOut')}</button>
  </div>`;
}

export async function bookingPage(ctx: PagesContext, req: Request, res: Response, tenant: PublicTenant, pagePath: string): Promise<void> {
  const assets = ctx.assets();
  if (!assets) return void res.status(503).type('text/plain').send('The booking page is not built: run npm run build');
  const view = await salonView(ctx.deps, req, res, tenant, pagePath);
  if (!isAcceptingBookings(tenant, nowOf(ctx.deps))) return closedPage(ctx, req, res, view);
  const [catalogue, version] = await Promise.all([catalogueOf(ctx.deps, tenant), bookingUiVersion(ctx.deps.knex)]);
  const salon = salonRules(tenant);
  const state = stateOf(req, catalogue.services, catalogue.staff);
  const step = stepOf(state);
  const base = { req, res, assets, salon: view, lang: view.lang, title: `${t(view.lang, 'bookingHeading')} – ${tenant.name}` };

  // v2 takes over from the first view: the services form, or the time step of a link that chose the
  // services and the staff member (docs/rules/booking-page.md#versions)
  const linkedChoice = step === 'time' && !state.date && !state.week && !state.time;
  if (version === 'v2' && (step === 'services' || linkedChoice) && req.query.from === undefined) {
    const boot = await bootData(ctx, req, view, catalogue, state);
    const issuer = ctx.deps.config.oidc ? new URL(ctx.deps.config.oidc.issuer).origin : undefined;
    const first = step === 'services' ? servicesStep(view, catalogue, state) : await renderTimeStep(ctx, view, catalogue, state);
    return sendPage({
      ...base,
      scripts: assets.booking,
      connect: issuer ? [issuer] : [],
      body: html`<div id="app"><div class="booking">${accountBox(view, boot)}${first}</div></div>
        <script type="application/json" id="boot">
          ${jsonScript(boot)}
        </script>`,
    });
  }

  const submittedNothing = step === 'services' && req.query.from === 'services' && state.step === null;
  const body =
    step === 'services'
      ? servicesStep(view, catalogue, state, submittedNothing)
      : step === 'staff'
        ? staffStep(view, catalogue, state)
        : step === 'time'
          ? await renderTimeStep(ctx, view, catalogue, state)
          : contactStep(view, catalogue, salon, state, { name: '', phone: '', email: '', notes: '' }, undefined, nowOf(ctx.deps));
  sendPage({ ...base, body: html`<div class="booking">${body}${summary(view, catalogue, salon, state)}</div>` });
}
