// The customer pages the api serves outside /api (docs/rules/booking-page.md). Part of the HTTP edge: the
// handlers call the same domain services as the public API routes. HTML is compressed per response;
// the built assets (serveAssets, mounted by app.ts ahead of the rate limiter) are compressed at build.
import express, { Router, type ErrorRequestHandler, type Request, type Response } from 'express';
import compression from 'compression';
import type { AppDeps } from '../deps';
import type { PagesContext } from './context';
import { findPublicDir, loadBuiltAssets, type BuiltAssets } from './assets';
import { bookingPage, notFoundPage } from './booking-page';
import { bookFromForm } from './book';
import { calendarFile, cancelFromForm, payDepositFromForm, promiseFromForm, managePage, moveFromForm } from './manage-page';
import { paymentReturnPage, retryFromForm } from './return-page';
import { acceptFromForm, declineFromForm, offerPage } from './offer-page';
import { entryPage, joinFromForm, leaveFromForm } from './waitlist-page';
import { unsubscribeFromForm, unsubscribePage } from './unsubscribe-page';
import { deskPage } from './desk-page';
import { salonByHost, salonBySlug, pageLang } from './salon';
import { sendPage } from './layout';
import { html } from './html';
import { moveLimiters, rateLimiter } from '../middleware/rate-limit';
import { toAppError } from '../middleware/error-handler';
import { redactedUrl } from '../redacted-url';
import { errorMessage, t } from '../../web/shared/i18n';

/** First path segments that belong to the platform, never to a salon's slug. */
const RESERVED = new Set(['api', 'assets', 'payments', 'reset-password', 'customer-sign-in', 'desk']);

/** The built assets, read once; undefined (and the pages answer 503) until `npm run build` made them. */
export function builtAssets(publicDir = findPublicDir()): () => BuiltAssets | undefined {
  let built: BuiltAssets | undefined;
  return () => {
    if (!built && publicDir) built = loadBuiltAssets(publicDir);
    return built;
  };
}

export function customerPages(deps: AppDeps, built: () => BuiltAssets | undefined): Router {
  const ctx: PagesContext = {
    deps,
    assets: () => built()?.urls,
    bookings: { knex: deps.knex, signaller: deps.signaller, manageLinkKey: deps.config.keys.manageLink, now: deps.now, bookingHooks: deps.hooks.booking },
    payments: {
      knex: deps.knex,
      signaller: deps.signaller,
      keyring: deps.config.credentialKeys,
      manageLinkKey: deps.config.keys.manageLink,
      bookingHooks: deps.hooks.booking,
      providers: deps.paymentProviders ?? {
        get: () => undefined,
        names: () => [],
        webhookBaseUrl: deps.config.payments.webhookBaseUrl,
        returnBaseUrl: deps.config.payments.returnBaseUrl,
      },
    },
  };
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '16kb' });
  const createLimit = rateLimiter(deps.config.rateLimit.bookingCreate, deps.config.rateLimit.windowMs, 'booking-create');
  // counted under the API accept route's name, so the page and POST /api/.../offers/:offerId/accept share one budget
  const acceptLimit = rateLimiter(deps.config.rateLimit.bookingCreate, deps.config.rateLimit.windowMs, 'waitlist-accept');
  // counted under the API join route's name: joining on the page and through POST /api/.../waitlist share one budget
  const joinLimit = rateLimiter(deps.config.rateLimit.bookingCreate, deps.config.rateLimit.windowMs, 'waitlist-join');
  // counted under the API move route's names: moving on the manage page and through POST /api/.../move share the budgets
  const moveLimits = moveLimiters(deps.config.rateLimit);
  const slugRoute = (handler: (req: Request, res: Response) => Promise<void>) => async (req: Request, res: Response, next: () => void) => {
    if (RESERVED.has(String(req.params.slug))) return next();
    await handler(req, res);
  };
  // /api is the API's: its requests never reach the page routes (whose parameters would be decoded first)
  router.use((req, _res, next) => next(req.path === '/api' || req.path.startsWith('/api/') ? 'router' : undefined));
  router.use(compression());

  // the front desk, on the platform host and on a salon's own (docs/rules/front-desk.md)
  router.get('/desk', async (req, res) => {
    const assets = ctx.assets();
    if (!assets) return void res.status(503).type('text/plain').send('The front desk is not built yet (npm run build)');
    await deskPage(deps, assets, req, res);
  });
  router.get('/payments/:id/return', (req, res) => paymentReturnPage(ctx, req, res));
  router.post('/payments/:id/retry', form, (req, res) => retryFromForm(ctx, req, res));
  router.get(
    '/:slug/bookings/:id/calendar.ics',
    slugRoute((req, res) => calendarFile(ctx, req, res)),
  );
  router.get(
    '/:slug/bookings/:id',
    slugRoute((req, res) => managePage(ctx, req, res)),
  );
  router.post(
    '/:slug/bookings/:id/cancel',
    form,
    slugRoute((req, res) => cancelFromForm(ctx, req, res)),
  );
  router.post(
    '/:slug/bookings/:id/deposit',
    form,
    slugRoute((req, res) => payDepositFromForm(ctx, req, res)),
  );
  router.post(
    // /confirm: the form's address on pages rendered before the promise had its own word
    ['/:slug/bookings/:id/promise', '/:slug/bookings/:id/confirm'],
    form,
    slugRoute((req, res) => promiseFromForm(ctx, req, res)),
  );
  router.post(
    '/:slug/bookings/:id/move',
    ...moveLimits,
    form,
    slugRoute((req, res) => moveFromForm(ctx, req, res)),
  );
  router.get(
    '/:slug/waitlist/offers/:offerId',
    slugRoute((req, res) => offerPage(ctx, req, res)),
  );
  router.post(
    '/:slug/waitlist/offers/:offerId/accept',
    acceptLimit,
    form,
    slugRoute((req, res) => acceptFromForm(ctx, req, res)),
  );
  router.post(
    '/:slug/waitlist/offers/:offerId/decline',
    form,
    slugRoute((req, res) => declineFromForm(ctx, req, res)),
  );
  router.post(
    '/:slug/waitlist',
    joinLimit,
    form,
    slugRoute((req, res) => joinFromForm(ctx, req, res)),
  );
  router.get(
    '/:slug/waitlist/:id',
    slugRoute((req, res) => entryPage(ctx, req, res)),
  );
  router.post(
    '/:slug/waitlist/:id/leave',
    form,
    slugRoute((req, res) => leaveFromForm(ctx, req, res)),
  );
  router.post(
    '/:slug/book',
    createLimit,
    form,
    slugRoute((req, res) => bookFromForm(ctx, req, res)),
  );
  router.get(
    '/:slug/nudges/unsubscribe',
    slugRoute((req, res) => unsubscribePage(ctx, req, res)),
  );
  router.post(
    '/:slug/nudges/unsubscribe',
    form,
    slugRoute((req, res) => unsubscribeFromForm(ctx, req, res)),
  );
  router.get(
    '/:slug',
    slugRoute(async (req, res) => {
      const tenant = await salonBySlug(deps, String(req.params.slug));
      if (!tenant) return notFoundPage(ctx, req, res, pageLang(req, res));
      await bookingPage(ctx, req, res, tenant, `/${tenant.slug}`);
    }),
  );
  // the salon's own host: <slug>.<PLATFORM_DOMAIN> or its custom domain
  router.get('/', async (req, res, next) => {
    const tenant = await salonByHost(deps, req);
    if (!tenant) return next();
    await bookingPage(ctx, req, res, tenant, '/');
  });
  router.use(pageErrors(ctx, deps));
  return router;
}

/** A failure on a page is a page (in the customer's language), not the API's JSON envelope. */
function pageErrors(ctx: PagesContext, deps: AppDeps): ErrorRequestHandler {
  return (err, req, res, next) => {
    const appError = toAppError(err);
    if (appError.status >= 500) deps.logger.error({ err, method: req.method, path: redactedUrl(req.originalUrl) }, 'customer page failed');
    const assets = ctx.assets();
    if (res.headersSent || !assets) return next(err);
    const lang = pageLang(req, res);
    sendPage({
      req,
      res,
      assets,
      lang,
      status: appError.status,
      title: t(lang, 'errorHeading'),
      body: html`<h1>${t(lang, 'errorHeading')}</h1>
        <p role="alert">${errorMessage(lang, appError.code)}</p>`,
    });
  };
}
