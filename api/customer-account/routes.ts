// Customer accounts (docs/rules/customers.md#customer-accounts): sign-in with an external OpenID Connect
// provider, the customer's own session cookies (separate from the staff cookies), profile and the
// bookings list across salons. Thin: validated input -> domain call -> envelope.
import { cookieBaseOf } from '../cookies';
import { Router, type Request, type Response } from 'express';
import type { AppDeps } from '../deps';
import { sendCreated, sendData, sendPage } from '../envelope';
import { CUSTOMER_ACCESS_COOKIE, CUSTOMER_REFRESH_COOKIE } from '../middleware/customer-authenticate';
import { rateLimiter } from '../middleware/rate-limit';
import { customerOf } from '../request-context';
import * as customerAuth from '../../domain/customer-account/customer-auth.service';
import { claimBooking, listCustomerBookings } from '../../domain/customer-account/customer-bookings.service';
import { confirmPhoneVerification, startPhoneVerification } from '../../domain/customer-account/phone-verification.service';
import { publicTenantBySlug } from '../../domain/public/public-portal.service';
import { customerLoyaltyOverview, customerStampsAt, customerVouchers } from '../../domain/loyalty/loyalty-customer.service';
import type { BookingDeps } from '../../domain/booking/booking.types';
import { nowOf } from '../../domain/time/clock';
import { customerPreferences, updateCustomerPreferences } from '../../domain/customer-account/customer-preferences.service';

/** The customer refresh cookie is only sent to the customer auth routes. */
const CUSTOMER_REFRESH_COOKIE_PATH = '/api/auth/customer';

export function customerAccountRouter(deps: AppDeps): Router {
  const { config, knex } = deps;
  const router = Router();
  const limit = rateLimiter(config.rateLimit.auth, config.rateLimit.windowMs, 'auth');
  const cookieBase = cookieBaseOf(config);
  const authDeps: customerAuth.CustomerAuthDeps = { config, knex, idTokenVerifier: deps.idTokenVerifier, now: deps.now };
  const bdeps: BookingDeps = { knex, signaller: deps.signaller, manageLinkKey: config.keys.manageLink, now: deps.now, bookingHooks: deps.hooks.booking };

  function sendSession(res: Response, session: customerAuth.CustomerSessionTokens, status = 200): void {
    res.cookie(CUSTOMER_ACCESS_COOKIE, session.accessToken, { ...cookieBase, path: '/', maxAge: session.expiresIn * 1000 });
    res.cookie(CUSTOMER_REFRESH_COOKIE, session.refreshToken, { ...cookieBase, path: CUSTOMER_REFRESH_COOKIE_PATH, maxAge: session.refreshExpiresIn * 1000 });
    const body = { accessToken: session.accessToken, refreshToken: session.refreshToken, expiresIn: session.expiresIn, customer: session.customer };
    if (status === 201) sendCreated(res, body);
    else sendData(res, body, status);
  }

  const refreshTokenOf = (req: Request): string | undefined =>
    (req.body?.refreshToken as string | undefined) ?? (req.cookies?.[CUSTOMER_REFRESH_COOKIE] as string | undefined);

  router.post('/auth/customer/oauth', limit, async (req, res) => {
    const session = await customerAuth.signInWithIdToken(authDeps, req.body);
    sendSession(res, session, session.created ? 201 : 200);
  });

  router.post('/auth/customer/refresh', limit, async (req, res) => {
    sendSession(res, await customerAuth.refreshCustomerSession(authDeps, refreshTokenOf(req)));
  });

  router.post('/auth/customer/logout', limit, async (req, res) => {
    await customerAuth.logoutCustomer(authDeps, refreshTokenOf(req), req.customer?.sessionId);
    res.clearCookie(CUSTOMER_ACCESS_COOKIE, { ...cookieBase, path: '/' });
    res.clearCookie(CUSTOMER_REFRESH_COOKIE, { ...cookieBase, path: CUSTOMER_REFRESH_COOKIE_PATH });
    sendData(res, { message: 'Signed out' });
  });

  router.get('/auth/customer/me', async (req, res) => {
    sendData(res, await customerAuth.currentCustomer(knex, customerOf(req).accountId));
  });

  router.get('/customer/me', async (req, res) => {
    sendData(res, await customerAuth.customerProfile(knex, customerOf(req).accountId));
  });

  router.patch('/customer/me/profile', async (req, res) => {
    sendData(res, await customerAuth.updateCustomerProfile(knex, customerOf(req).accountId, req.body));
  });

  router.get('/customer/me/bookings', async (req, res) => {
    const q = req.query as Record<string, string | undefined>;
    sendPage(res, await listCustomerBookings({ knex, now: deps.now }, customerOf(req).accountId, { page: Number(q.page ?? 1), limit: Number(q.limit ?? 20) }));
  });

  // "time for your next visit" messages (docs/rules/series.md#rebooking-nudges)
  router.get('/customer/me/preferences', async (req, res) => {
    sendData(res, await customerPreferences(knex, customerOf(req).accountId));
  });
  router.put('/customer/me/preferences', async (req, res) => {
    sendData(res, await updateCustomerPreferences(knex, customerOf(req).accountId, req.body));
  });

  // loyalty across salons (docs/rules/loyalty.md#a-customers-loyalty-across-salons): the account's customer record in each salon holds its cards and vouchers
  const customerIdsOf = (req: Request) => customerAuth.customerIdsOfAccount(knex, customerOf(req).accountId);
  router.get('/customer/me/loyalty', async (req, res) => {
    sendData(res, await customerLoyaltyOverview(knex, await customerIdsOf(req), nowOf(deps)));
  });
  router.get('/customer/loyalty/vouchers', async (req, res) => {
    sendData(res, await customerVouchers(knex, await customerIdsOf(req)));
  });
  router.get('/customer/loyalty/stamps/:tenantSlug', async (req, res) => {
    sendData(res, await customerStampsAt(knex, await customerIdsOf(req), String(req.params.tenantSlug), nowOf(deps)));
  });

  // the claim needs proof (docs/rules/customers.md#claiming-a-guest-booking): the manage token, or the booking's phone proven on the account
  router.post('/public/tenants/:slug/bookings/:id/claim', async (req, res) => {
    const { accountId } = customerOf(req);
    const tenant = await publicTenantBySlug(knex, String(req.params.slug));
    sendData(res, await claimBooking(bdeps, tenant, accountId, String(req.params.id), { token: (req.body as { token?: string } | undefined)?.token }));
  });

  // proving a phone with a one-time SMS code (docs/rules/customers.md#verifying-a-phone)
  const phoneDeps = { knex, signaller: deps.signaller, phoneCodeKey: config.keys.phoneCode, now: deps.now };
  router.post('/customer/me/phone-verifications', limit, async (req, res) => {
    sendCreated(res, await startPhoneVerification(phoneDeps, customerOf(req).accountId, req.body.phone));
  });
  router.post('/customer/me/phone-verifications/confirm', limit, async (req, res) => {
    sendData(res, await confirmPhoneVerification(phoneDeps, customerOf(req).accountId, req.body.phone, req.body.code));
  });

  return router;
}
