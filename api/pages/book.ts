// POST /<slug>/book: the server-rendered contact form books through the same domain service as
// POST /api/public/tenants/:slug/bookings, then redirects: to the provider's hosted checkout when a
// deposit is due, else to the confirmation (the manage page). A time taken meanwhile sends the
// customer back to fresh times of that day with a notice; other refusals re-render the form.
import type { Request, Response } from 'express';
import type { PagesContext } from './context';
import { salonBySlug, salonView } from './salon';
import { catalogueOf, salonRules } from './catalogue';
import { parseState, stateQuery } from './booking-state';
import { contactStep, summary, type ContactValues } from './booking-steps';
import { notFoundPage, requestedItems } from './booking-page';
import { sendPage } from './layout';
import { html } from './html';
import { setProofCookie } from './proof-cookie';
import { manageLinkPath } from '../../domain/booking/manage-link.service';
import { t } from '../../web/shared/i18n';
import { localDateOf } from '../../web/shared/format';
import { contactBody, contactProblems } from '../../web/shared/contact';
import { AppError } from '../../domain/errors';
import { createPublicBooking } from '../../domain/booking/booking-create.service';
import { publicPayment } from '../../domain/payments/payment.service';
import { nowOf } from '../../domain/time/clock';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export async function bookFromForm(ctx: PagesContext, req: Request, res: Response): Promise<void> {
  const slug = String(req.params.slug);
  const tenant = await salonBySlug(ctx.deps, slug);
  if (!tenant) return notFoundPage(ctx, req, res);
  const body = (req.body ?? {}) as Record<string, unknown>;
  const pagePath = body.pagePath === '/' ? '/' : `/${slug}`;
  const view = await salonView(ctx.deps, req, res, tenant, pagePath);
  const catalogue = await catalogueOf(ctx.deps, tenant);
  const salon = salonRules(tenant);
  const state = parseState(body, catalogue.services, catalogue.staff);
  if (!state.time) return void res.redirect(303, `${pagePath}${stateQuery(state)}`);
  const values: ContactValues = { name: text(body.name), phone: text(body.phone), email: text(body.email), notes: text(body.notes) };
  // the unticked checkbox sends nothing (docs/rules/personal-data.md#consent)
  const marketingConsent = body.marketingConsent === 'yes';

  const render = (status: number, errors: Parameters<typeof contactStep>[5]) =>
    sendPage({
      req,
      res,
      assets: ctx.assets()!,
      salon: view,
      lang: view.lang,
      status,
      title: `${t(view.lang, 'bookingHeading')} – ${tenant.name}`,
      body: html`<div class="booking">
        ${contactStep(view, catalogue, salon, state, values, errors, nowOf(ctx.deps), marketingConsent)}${summary(view, catalogue, salon, state)}
      </div>`,
    });

  const problems = contactProblems(values);
  if (Object.keys(problems).length) {
    return render(422, { fields: Object.fromEntries(Object.entries(problems).map(([field, key]) => [field, t(view.lang, key)])) });
  }

  try {
    // "anyone" is the placement's decision, as for every other booking (domain/booking/booking-placement.service.ts)
    const items = requestedItems(state);
    const booking = await createPublicBooking(ctx.bookings, tenant, {
      startTime: state.time,
      items,
      customer: contactBody(values),
      language: view.lang,
      marketingConsent,
    });
    setProofCookie(req, res, booking.id, booking.manageToken);
    if (booking.paymentRequired) {
      const payment = await publicPayment(ctx.payments, tenant, booking.id, { token: booking.manageToken }).catch(() => null);
      if (payment?.redirectUrl) return void res.redirect(303, payment.redirectUrl);
    }
    res.redirect(303, `${manageLinkPath(slug, booking.id, booking.manageToken)}&new=1`);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.code === 'BOOKING_CONFLICT') {
      return void res.redirect(
        303,
        `${pagePath}${stateQuery({ services: state.services, staff: state.staff, date: localDateOf(state.time, salon.timezone), notice: 'conflict' })}`,
      );
    }
    const fields: Partial<Record<keyof ContactValues, string>> = {};
    for (const detail of err.details ?? []) {
      const field = (['name', 'phone', 'email', 'notes'] as const).find((f) => detail.field.endsWith(f));
      if (field) fields[field] = t(view.lang, field === 'phone' ? 'invalidPhone' : field === 'email' ? 'invalidEmail' : 'required');
    }
    render(err.status >= 500 ? 503 : err.status, { fields, code: err.code });
  }
}
