// The waitlist offer behind the link in the offer's SMS and e-mail,
// `/<slug>/waitlist/offers/<offerId>?token=...` (docs/rules/booking-page.md#the-waitlist-offer-page):
// the held time, its services and staff, how long it is held, and two plain forms, accept (books it
// and goes on to the deposit or the manage page, as booking on the page does) and decline (the time
// goes to the next in line). Same domain services as the public API's offer routes; no JavaScript.
import type { Request, Response } from 'express';
import type { PagesContext } from './context';
import { html, type Html } from './html';
import { salonBySlug, salonView, pageLang, type SalonView } from './salon';
import { sendPage } from './layout';
import { notFoundPage } from './booking-page';
import { catalogueOf } from './catalogue';
import { setProofCookie } from './proof-cookie';
import { errorMessage, t, type MessageKey } from '../../web/shared/i18n';
import { formatLongDay, formatMoney, formatTime } from '../../web/shared/format';
import { AppError } from '../../domain/errors';
import { acceptOffer, declineOffer, viewOffer, type OfferDeps } from '../../domain/waitlist/waitlist-offer.service';
import type { WaitlistOfferDto } from '../../domain/waitlist/waitlist.dto';
import { publicPayment } from '../../domain/payments/payment.service';
import { issueManageToken, manageLinkPath } from '../../domain/booking/manage-link.service';
import type { PublicTenant } from '../../domain/public/public-portal.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What happened to an offer that is no longer open: the code the public API answers an accept with. */
const CLOSED_CODE: Record<string, string> = {
  ACCEPTED: 'WAITLIST_OFFER_ALREADY_ACCEPTED',
  TAKEN: 'WAITLIST_OFFER_TAKEN',
  DECLINED: 'WAITLIST_OFFER_DECLINED',
  EXPIRED: 'WAITLIST_OFFER_EXPIRED',
};

function tokenOf(source: unknown): string | undefined {
  return typeof source === 'string' && source.length > 0 && source.length <= 200 ? source : undefined;
}

function offerPath(slug: string, offerId: string, token: string): string {
  return `/${encodeURIComponent(slug)}/waitlist/offers/${offerId}?token=${encodeURIComponent(token)}`;
}

interface Found {
  tenant: PublicTenant;
  offer: WaitlistOfferDto;
  token: string;
}

function offerDeps(ctx: PagesContext): OfferDeps {
  return {
    knex: ctx.deps.knex,
    signaller: ctx.deps.signaller,
    offerKey: ctx.deps.config.keys.waitlistOffer,
    manageLinkKey: ctx.deps.config.keys.manageLink,
    now: ctx.deps.now,
    bookingHooks: ctx.deps.hooks.booking,
  };
}

/** The salon and the offer the token opens; undefined for a wrong id, slug or token (one 404 for all, as the API). */
async function findOffer(ctx: PagesContext, slug: string, offerId: string, token: string | undefined): Promise<Found | undefined> {
  if (!token || !UUID.test(offerId)) return undefined;
  const tenant = await salonBySlug(ctx.deps, slug);
  if (!tenant) return undefined;
  try {
    return { tenant, offer: await viewOffer(offerDeps(ctx), tenant, offerId, token), token };
  } catch (err) {
    if (err instanceof AppError && err.code === 'WAITLIST_OFFER_NOT_FOUND') return undefined;
    throw err;
  }
}

/** An unknown offer or a wrong token: a 404 page that says so, with the salon's page when the salon exists. */
async function offerNotFound(ctx: PagesContext, req: Request, res: Response): Promise<void> {
  const tenant = await salonBySlug(ctx.deps, String(req.params.slug));
  if (!tenant) return notFoundPage(ctx, req, res, pageLang(req, res));
  const view = await salonView(ctx.deps, req, res, tenant, `/${tenant.slug}`);
  const { lang } = view;
  const body = html`<section class="card" aria-labelledby="offer-heading">
    <h2 id="offer-heading">${t(lang, 'notFoundHeading')}</h2>
    <p role="alert">${errorMessage(lang, 'WAITLIST_OFFER_NOT_FOUND')}</p>
    <p><a class="button primary" href="/${tenant.slug}">${t(lang, 'offerFindAnother')}</a></p>
  </section>`;
  sendPage({ req, res, assets: ctx.assets()!, salon: view, lang, status: 404, title: t(lang, 'notFoundHeading'), body });
}

function offerDetails(
  view: SalonView,
  offer: WaitlistOfferDto,
  names: { services: Map<string, { name: string; price: number }>; staff: Map<string, string> },
): Html {
  const { lang, locale } = view;
  const zone = view.tenant.settings.timezone;
  const price = offer.items.reduce((sum, i) => sum + (names.services.get(i.serviceId)?.price ?? 0), 0);
  return html`<dl>
      <dt>${t(lang, 'when')}</dt>
      <dd>${formatLongDay(offer.startTime, zone, locale)}, ${formatTime(offer.startTime, zone, locale)}–${formatTime(offer.endTime, zone, locale)}</dd>
      <dt>${t(lang, 'services')}</dt>
      <dd>
        <ul role="list">
          ${offer.items.map((i) => {
            const staff = names.staff.get(i.resourceId);
            return html`<li>${names.services.get(i.serviceId)?.name ?? ''}${staff ? ` (${t(lang, 'withStaff', { name: staff })})` : ''}</li>`;
          })}
        </ul>
      </dd>
      <dt>${t(lang, 'total')}</dt>
      <dd id="offer-price">${formatMoney(price, view.tenant.settings.currency, locale)}</dd>
    </dl>
    <p class="tz-note">${t(lang, 'timeZoneNote', { zone })}</p>`;
}

async function renderOffer(ctx: PagesContext, req: Request, res: Response, found: Found, options: { status?: number; code?: string } = {}): Promise<void> {
  const { tenant, offer, token } = found;
  const view = await salonView(ctx.deps, req, res, tenant, `/${tenant.slug}`);
  const { lang, locale } = view;
  const zone = tenant.settings.timezone;
  const catalogue = await catalogueOf(ctx.deps, tenant);
  const names = {
    services: new Map(catalogue.services.flatMap((g) => g.services.map((s) => [s.id, { name: s.name, price: s.price }] as const))),
    staff: new Map(catalogue.staff.map((s) => [s.id, s.name] as const)),
  };
  const closedCode = offer.status === 'OFFERED' ? undefined : (CLOSED_CODE[offer.status] ?? 'WAITLIST_OFFER_EXPIRED');
  let body: Html;
  if (!closedCode) {
    const heldUntil = `${formatLongDay(offer.expiresAt, zone, locale)} ${formatTime(offer.expiresAt, zone, locale)}`;
    const hidden = html`<input type="hidden" name="token" value="${token}" />`;
    body = html`<section class="card" aria-labelledby="offer-heading">
      <h2 id="offer-heading">${t(lang, 'offerHeading')}</h2>
      <p>${t(lang, 'offerIntro', { salon: tenant.name })}</p>
      ${offerDetails(view, offer, names)}
      <p id="offer-held"><strong>${t(lang, 'offerHeldUntil', { when: heldUntil })}</strong></p>
      <div class="error-slot" role="alert">${options.code ? html`<p class="error">${errorMessage(lang, options.code)}</p>` : ''}</div>
      <div class="actions">
        <form method="post" action="/${tenant.slug}/waitlist/offers/${offer.id}/accept">
          ${hidden}<button type="submit" class="primary" aria-describedby="offer-held">${t(lang, 'offerAccept')}</button>
        </form>
        <form method="post" action="/${tenant.slug}/waitlist/offers/${offer.id}/decline">
          ${hidden}<button type="submit">${t(lang, 'offerDecline')}</button>
        </form>
      </div>
    </section>`;
  } else {
    // the accepted offer's booking: its manage link, derived from the booking id as in its messages
    const booking =
      offer.status === 'ACCEPTED' && offer.bookingId
        ? manageLinkPath(tenant.slug, offer.bookingId, issueManageToken(ctx.deps.config.keys.manageLink, offer.bookingId).token)
        : undefined;
    const heading: MessageKey =
      offer.status === 'DECLINED' ? 'offerDeclinedHeading' : offer.status === 'ACCEPTED' ? 'offerAcceptedHeading' : 'offerClosedHeading';
    body = html`<section class="card" aria-labelledby="offer-heading">
      <h2 id="offer-heading">${t(lang, heading)}</h2>
      <p ${options.status && options.status >= 400 ? html`role="alert"` : html`role="status"`}>
        ${offer.status === 'DECLINED' && !options.code ? t(lang, 'offerDeclinedBody') : errorMessage(lang, options.code ?? closedCode)}
      </p>
      ${offerDetails(view, offer, names)} ${booking ? html`<p><a class="button" href="${booking}">${t(lang, 'offerSeeBooking')}</a></p>` : ''}
      <p><a class="button primary" href="/${tenant.slug}">${t(lang, 'offerFindAnother')}</a></p>
    </section>`;
  }
  sendPage({ req, res, assets: ctx.assets()!, salon: view, lang, status: options.status, title: `${t(lang, 'offerHeading')} – ${tenant.name}`, body });
}

/** GET /<slug>/waitlist/offers/<offerId>?token=... */
export async function offerPage(ctx: PagesContext, req: Request, res: Response): Promise<void> {
  const found = await findOffer(ctx, String(req.params.slug), String(req.params.offerId), tokenOf(req.query.token));
  if (!found) return offerNotFound(ctx, req, res);
  await renderOffer(ctx, req, res, found);
}

/** A refused accept or decline: the offer as it is now, with the API's code as the reason (its status, never a 500 page for a 4xx). */
async function refused(ctx: PagesContext, req: Request, res: Response, found: Found, err: AppError): Promise<void> {
  const fresh = (await findOffer(ctx, found.tenant.slug, found.offer.id, found.token)) ?? found;
  await renderOffer(ctx, req, res, fresh, { status: err.status >= 500 ? 503 : err.status, code: err.code });
}

/** POST /<slug>/waitlist/offers/<offerId>/accept (form: token): books the held time, then the deposit's checkout or the manage page. */
export async function acceptFromForm(ctx: PagesContext, req: Request, res: Response): Promise<void> {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const found = await findOffer(ctx, String(req.params.slug), String(req.params.offerId), tokenOf(body.token));
  if (!found) return offerNotFound(ctx, req, res);
  try {
    const booking = await acceptOffer(offerDeps(ctx), found.tenant, found.offer.id, found.token);
    setProofCookie(req, res, booking.id, booking.manageToken);
    if (booking.paymentRequired) {
      const payment = await publicPayment(ctx.payments, found.tenant, booking.id, { token: booking.manageToken }).catch(() => null);
      if (payment?.redirectUrl) return void res.redirect(303, payment.redirectUrl);
    }
    res.redirect(303, `${manageLinkPath(found.tenant.slug, booking.id, booking.manageToken)}&new=1`);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    await refused(ctx, req, res, found, err);
  }
}

/** POST /<slug>/waitlist/offers/<offerId>/decline (form: token): the time goes to the next in line; the offer page then says so. */
export async function declineFromForm(ctx: PagesContext, req: Request, res: Response): Promise<void> {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const found = await findOffer(ctx, String(req.params.slug), String(req.params.offerId), tokenOf(body.token));
  if (!found) return offerNotFound(ctx, req, res);
  try {
    await declineOffer(offerDeps(ctx), found.tenant, found.offer.id, found.token);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return refused(ctx, req, res, found, err);
  }
  res.redirect(303, offerPath(found.tenant.slug, found.offer.id, found.token));
}
