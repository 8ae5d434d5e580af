// `/payments/<id>/return`, where the provider's hosted checkout sends the customer back. While the
// provider's answer is on its way the page says so and checks again (the v2 script polls the status
// API; without JavaScript the page refreshes itself every two seconds); then it shows the outcome:
// paid (with the manage link), declined (with a retry where the platform allows one), or expired.
// It names the services and the time the deposit is for, and says one state at a time: the booking's
// status only once the platform has acted on the payment (a received payment beside "waiting for the
// deposit" would contradict itself for the moment in between).
// The retry form posts to `/payments/<id>/retry` and goes on to a new checkout.
import type { Request, Response } from 'express';
import type { PagesContext } from './context';
import { html, type Html } from './html';
import { salonBySlug, salonView, pageLang } from './salon';
import { sendPage } from './layout';
import { notFoundPage } from './booking-page';
import { proofToken } from './proof-cookie';
import { errorMessage, t, type MessageKey } from '../../web/shared/i18n';
import { formatDayTime, formatLongDay, formatMoney, formatTime } from '../../web/shared/format';
import { AppError } from '../../domain/errors';
import { paymentReturnView, type PaymentReturnView } from '../../domain/payments/payment-return.service';
import { retryPayment } from '../../domain/payments/payment.service';
import { bookingUiVersion } from '../../domain/platform/platform-settings.service';
import { manageLinkPath } from '../../domain/booking/manage-link.service';
import type { PublicTenant } from '../../domain/public/public-portal.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function viewOf(ctx: PagesContext, id: string): Promise<{ payment: PaymentReturnView; tenant: PublicTenant } | undefined> {
  if (!UUID.test(id)) return undefined;
  try {
    const payment = await paymentReturnView(ctx.deps.knex, id);
    const tenant = await salonBySlug(ctx.deps, payment.slug);
    return tenant ? { payment, tenant } : undefined;
  } catch (err) {
    if (err instanceof AppError && err.status === 404) return undefined;
    throw err;
  }
}

/**
 * What the page says, and whether it is settled: the provider's answer has arrived and the
 * platform has acted on it (the booking confirmed, or its deposit put up for retry, or the booking
 * cancelled). Until then the page keeps checking.
 */
function outcome(payment: PaymentReturnView): { key: MessageKey; settled: boolean } {
  const pending = payment.bookingStatus === 'PENDING';
  switch (payment.latestStatus) {
    case 'INITIATED':
      return { key: 'paymentWaiting', settled: false };
    case 'CAPTURED':
      return { key: 'paymentPaid', settled: !pending };
    case 'AUTHORIZED':
      return { key: payment.provider === 'vipps' ? 'paymentAuthorizedVipps' : 'paymentAuthorized', settled: !pending };
    case 'FAILED':
      if (payment.retryCapReached || payment.bookingStatus === 'CANCELLED') return { key: 'paymentRetryCap', settled: !pending };
      // a provider that did not answer is not a refused card (docs/rules/booking-page.md#the-payment-return-page)
      return {
        key: payment.failureKind === 'TRANSIENT' ? 'paymentProviderError' : payment.provider === 'vipps' ? 'paymentDeclinedVipps' : 'paymentDeclined',
        settled: !pending || payment.depositStatus === 'RETRY_PENDING',
      };
    case 'EXPIRED':
    case 'VOIDED':
      return { key: 'paymentExpired', settled: true };
    default:
      return { key: 'paymentRefunded', settled: true };
  }
}

async function renderReturn(
  ctx: PagesContext,
  req: Request,
  res: Response,
  found: { payment: PaymentReturnView; tenant: PublicTenant },
  error?: string,
  status = 200,
): Promise<void> {
  const { payment, tenant } = found;
  const view = await salonView(ctx.deps, req, res, tenant, `/${tenant.slug}`);
  const { lang, locale } = view;
  const { key, settled } = outcome(payment);
  const waiting = !settled;
  const token = proofToken(req, payment.bookingId);
  const v2 = (await bookingUiVersion(ctx.deps.knex)) === 'v2';
  const assets = ctx.assets()!;
  const statusLine: Html = html`<p
    id="payment-status"
    class="${key === 'paymentPaid' || key === 'paymentAuthorized' || key === 'paymentAuthorizedVipps' ? 'success' : ''}"
    ${waiting ? html` data-payment-poll data-tenant-id="${payment.tenantId}" data-payment-id="${payment.latestPaymentId}" data-status="${payment.latestStatus}" data-booking-status="${payment.bookingStatus}" data-deposit-status="${payment.depositStatus ?? ''}"` : ''}
  >
    ${t(lang, key)}
  </p>`;
  const retry =
    payment.retryable && settled
      ? html`<form method="post" action="/payments/${payment.paymentId}/retry">
          <input type="hidden" name="lang" value="${lang}" />
          ${
            token
              ? ''
              : html`<div class="field">
                  <label for="retry-phone">${t(lang, 'phone')}</label>
                  <p class="hint" id="retry-phone-hint">${t(lang, 'paymentPhoneProof')}</p>
                  <input id="retry-phone" name="phone" type="tel" autocomplete="tel" required maxlength="32" aria-describedby="retry-phone-hint" />
                </div>`
          }
          <button type="submit" class="primary">${t(lang, 'paymentRetry')}</button>
        </form>`
      : '';
  const manage =
    token && !waiting ? html`<p><a class="button" href="${manageLinkPath(tenant.slug, payment.bookingId, token)}">${t(lang, 'manageLink')}</a></p>` : '';
  const checkout = payment.checkoutUrl ? html`<p><a href="${payment.checkoutUrl}">${t(lang, 'paymentGoTo')}</a></p>` : '';
  // a failed deposit below the cap: until when the time is held for the retry
  const heldLine =
    payment.latestStatus === 'FAILED' && payment.retryable && payment.heldUntil
      ? html`<p>${t(lang, 'paymentHeldUntil', { when: formatDayTime(payment.heldUntil, view.tenant.settings.timezone, lang, locale) })}</p>`
      : '';
  const bookAgain = payment.bookingStatus === 'CANCELLED' ? html`<p><a class="button primary" href="/${tenant.slug}">${t(lang, 'bookAgain')}</a></p>` : '';
  const body = html`<section class="card" aria-labelledby="payment-heading">
    <h2 id="payment-heading">${t(lang, 'paymentHeading')}</h2>
    <p id="payment-booking">${bookingLine(payment, locale)}</p>
    <p>${t(lang, 'deposit')}: ${formatMoney(payment.amount, payment.currency, locale)}</p>
    <div role="status" aria-live="polite">
      ${statusLine}${heldLine}${settled ? html`<p>${t(lang, 'bookingStatusNow', { status: t(lang, bookingStatusKey(payment)).toLowerCase() })}</p>` : ''}
    </div>
    <div class="error-slot" role="alert">${error ? html`<p class="error">${error}</p>` : ''}</div>
    ${checkout}${retry}${manage}${bookAgain}
  </section>`;
  const refresh = html`<meta http-equiv="refresh" content="2" />`;
  sendPage({
    req,
    res,
    assets,
    salon: view,
    lang,
    status,
    title: t(lang, 'paymentHeading'),
    body,
    // v2: the script polls the status API; without JavaScript (and on v1) the page refreshes itself
    head: waiting ? (v2 ? html`<noscript>${refresh}</noscript>` : refresh) : undefined,
    scripts: waiting && v2 ? assets.paymentReturn : undefined,
  });
}

/** What the deposit is for: "Dameklipp, Brynsforming · fredag 4. desember, 10:00–10:45" in the booking's zone. */
function bookingLine(payment: PaymentReturnView, locale: string): string {
  const zone = payment.timezone;
  return `${payment.services.join(', ')} · ${formatLongDay(payment.startTime, zone, locale)}, ${formatTime(payment.startTime, zone, locale)}–${formatTime(payment.endTime, zone, locale)}`;
}

/** The booking's status as the customer reads it: a PENDING booking with its deposit unpaid waits for the deposit, not the salon. */
function bookingStatusKey(payment: PaymentReturnView): MessageKey {
  const unpaid = payment.bookingStatus === 'PENDING' && (payment.depositStatus === 'PENDING' || payment.depositStatus === 'RETRY_PENDING');
  return unpaid ? 'statusPENDING_DEPOSIT' : (`status${payment.bookingStatus}` as MessageKey);
}

/** GET /payments/<id>/return */
export async function paymentReturnPage(ctx: PagesContext, req: Request, res: Response): Promise<void> {
  const found = await viewOf(ctx, String(req.params.id));
  if (!found) return notFoundPage(ctx, req, res, pageLang(req, res));
  await renderReturn(ctx, req, res, found);
}

/** POST /payments/<id>/retry (form: phone when this browser holds no proof): a new checkout for the declined deposit. */
export async function retryFromForm(ctx: PagesContext, req: Request, res: Response): Promise<void> {
  const found = await viewOf(ctx, String(req.params.id));
  if (!found) return notFoundPage(ctx, req, res, pageLang(req, res));
  const body = (req.body ?? {}) as Record<string, unknown>;
  const token = proofToken(req, found.payment.bookingId);
  // the number as typed: the domain reads it in the salon's country (domain/phone)
  const phone = typeof body.phone === 'string' && body.phone.trim() ? body.phone : undefined;
  const lang = body.lang === 'en' ? 'en' : 'nb';
  try {
    const payment = await retryPayment(ctx.payments, found.tenant, found.payment.bookingId, token ? { token } : { phone });
    if (payment.redirectUrl) return void res.redirect(303, payment.redirectUrl);
    res.redirect(303, `/payments/${payment.paymentId}/return`);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    await renderReturn(
      ctx,
      req,
      res,
      { ...found, payment: await paymentReturnView(ctx.deps.knex, found.payment.paymentId) },
      errorMessage(lang, err.code),
      err.status >= 500 ? 503 : err.status,
    );
  }
}
