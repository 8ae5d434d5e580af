// The waitlist on the booking page (docs/rules/booking-page.md#the-waitlist): joining from a full day
// or from a staff member with nothing free ahead (`POST /<slug>/waitlist`, the form of both page
// versions without JavaScript), and the entry behind the link the customer gets,
// `/<slug>/waitlist/<id>?token=...`: what they wait for, and leaving (`POST .../leave`). The same
// domain services as the public API's waitlist routes; no JavaScript.
import type { Request, Response } from 'express';
import type { PagesContext } from './context';
import { html } from './html';
import { salonBySlug, salonView } from './salon';
import { sendPage } from './layout';
import { notFoundPage } from './booking-page';
import { catalogueOf } from './catalogue';
import { parseState, stateQuery } from './booking-state';
import { waitlistForm, type ContactValues } from './booking-steps';
import { errorMessage, t, type MessageKey } from '../../web/shared/i18n';
import { formatLocalDate, isLocalDate } from '../../web/shared/format';
import { contactBody, contactProblems } from '../../web/shared/contact';
import { AppError } from '../../domain/errors';
import { joinWaitlist, leaveWaitlist, viewEntry, type WaitlistDeps } from '../../domain/waitlist/waitlist.service';
import type { WaitlistEntryDto } from '../../domain/waitlist/waitlist.dto';
import { waitlistEntryPath } from '../../domain/notifications/waitlist-messages.rules';
import type { PublicTenant } from '../../domain/public/public-portal.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const text = (value: unknown) => (typeof value === 'string' ? value : '');

function tokenOf(source: unknown): string | undefined {
  return typeof source === 'string' && source.length > 0 && source.length <= 200 ? source : undefined;
}

function waitlistDeps(ctx: PagesContext): WaitlistDeps {
  return { knex: ctx.deps.knex, signaller: ctx.deps.signaller, entryKey: ctx.deps.config.keys.waitlistEntry, now: ctx.deps.now };
}

/** POST /<slug>/waitlist (form: services, staff, fromDate, toDate, name, phone, email): joins, then opens the entry's page. */
export async function joinFromForm(ctx: PagesContext, req: Request, res: Response): Promise<void> {
  const slug = String(req.params.slug);
  const tenant = await salonBySlug(ctx.deps, slug);
  if (!tenant) return notFoundPage(ctx, req, res);
  const body = (req.body ?? {}) as Record<string, unknown>;
  const pagePath = body.pagePath === '/' ? '/' : `/${slug}`;
  const view = await salonView(ctx.deps, req, res, tenant, pagePath);
  const catalogue = await catalogueOf(ctx.deps, tenant);
  const state = parseState(body, catalogue.services, catalogue.staff);
  const fromDate = isLocalDate(body.fromDate) ? body.fromDate : null;
  const toDate = isLocalDate(body.toDate) ? body.toDate : null;
  if (!state.services.length || !state.staff || !fromDate || !toDate) return void res.redirect(303, `${pagePath}${stateQuery(state)}`);
  const values: ContactValues = { name: text(body.name), phone: text(body.phone), email: text(body.email), notes: '' };
  const wish = { fromDate, toDate };

  const render = (status: number, errors: Parameters<typeof waitlistForm>[4]) =>
    sendPage({
      req,
      res,
      assets: ctx.assets()!,
      salon: view,
      lang: view.lang,
      status,
      title: `${t(view.lang, 'waitlistHeading')} – ${tenant.name}`,
      body: html`<div class="booking">
        <section class="step">
          ${waitlistForm(view, state, wish, values, errors)}
          <div class="actions">
            <a class="button" href="${pagePath}${stateQuery({ services: state.services, staff: state.staff, date: fromDate === toDate ? fromDate : null })}"
              >${t(view.lang, 'back')}</a
            >
          </div>
        </section>
      </div>`,
    });

  const problems = contactProblems(values);
  if (Object.keys(problems).length)
    return render(422, { fields: Object.fromEntries(Object.entries(problems).map(([field, key]) => [field, t(view.lang, key)])) });
  const contact = contactBody(values);
  try {
    const entry = await joinWaitlist(waitlistDeps(ctx), tenant, {
      serviceIds: state.services,
      resourceId: state.staff === 'any' ? null : state.staff,
      fromDate,
      toDate,
      customer: { name: contact.name, phone: contact.phone, email: contact.email },
      language: view.lang,
    });
    res.redirect(303, `${waitlistEntryPath(slug, entry.id, entry.token, view.lang)}&new=1`);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const fields: Partial<Record<keyof ContactValues, string>> = {};
    for (const detail of err.details ?? []) {
      const field = (['name', 'phone', 'email'] as const).find((f) => detail.field.endsWith(f));
      if (field) fields[field] = t(view.lang, field === 'phone' ? 'invalidPhone' : field === 'email' ? 'invalidEmail' : 'required');
    }
    render(err.status >= 500 ? 503 : err.status, { fields, code: err.code });
  }
}

interface Found {
  tenant: PublicTenant;
  entry: WaitlistEntryDto;
  token: string;
}

/** The salon and the entry the token opens; undefined for a wrong id, slug or token (one 404 for all, as the API). */
async function findEntry(ctx: PagesContext, slug: string, id: string, token: string | undefined): Promise<Found | undefined> {
  if (!token || !UUID.test(id)) return undefined;
  const tenant = await salonBySlug(ctx.deps, slug);
  if (!tenant) return undefined;
  try {
    return { tenant, entry: await viewEntry(waitlistDeps(ctx), tenant, id, token), token };
  } catch (err) {
    if (err instanceof AppError && err.code === 'WAITLIST_ENTRY_NOT_FOUND') return undefined;
    throw err;
  }
}

async function renderEntry(ctx: PagesContext, req: Request, res: Response, found: Found, options: { status?: number; error?: string } = {}): Promise<void> {
  const { tenant, entry, token } = found;
  const view = await salonView(ctx.deps, req, res, tenant, `/${tenant.slug}`);
  const { lang, locale } = view;
  const catalogue = await catalogueOf(ctx.deps, tenant);
  const services = catalogue.services.flatMap((g) => g.services);
  const names = entry.serviceIds.map((id) => services.find((s) => s.id === id)?.name).filter((n): n is string => !!n);
  const staff = entry.resourceId ? (catalogue.staff.find((s) => s.id === entry.resourceId)?.name ?? '') : t(lang, 'anyStaff');
  const day = (date: string) => formatLocalDate(date, locale);
  const dates = entry.fromDate === entry.toDate ? day(entry.fromDate) : `${day(entry.fromDate)} – ${day(entry.toDate)}`;
  const times = entry.earliestTime || entry.latestTime ? `${entry.earliestTime ?? ''}–${entry.latestTime ?? ''}` : null;
  const justJoined = req.query.new === '1' && entry.status === 'WAITING';
  const justLeft = req.query.left === '1' && entry.status === 'LEFT';
  const link = `${ctx.deps.config.publicBaseUrl}${waitlistEntryPath(tenant.slug, entry.id, token, lang)}`;
  const heading = justJoined ? t(lang, 'waitlistJoinedHeading') : t(lang, 'waitlistEntryHeading', { salon: tenant.name });
  const body = html`<section aria-labelledby="entry-heading">
      <h2 id="entry-heading" tabindex="-1" ${justJoined || justLeft ? html` autofocus` : ''}>${heading}</h2>
      <div role="status">${justLeft ? html`<p class="success">${t(lang, 'waitlistLeft')}</p>` : ''}</div>
      <div class="card">
        <dl>
          <dt>${t(lang, 'status')}</dt>
          <dd>${t(lang, `waitlistStatus${entry.status}` as MessageKey)}</dd>
          <dt>${t(lang, 'services')}</dt>
          <dd>${names.join(', ')}</dd>
          <dt>${t(lang, 'staffLabel')}</dt>
          <dd>${staff}</dd>
          <dt>${t(lang, 'waitlistDates')}</dt>
          <dd>${dates}</dd>
          ${
            times
              ? html`<dt>${t(lang, 'waitlistTimes')}</dt>
                  <dd>${times}</dd>`
              : ''
          }
        </dl>
        <p>${t(lang, 'waitlistLink')}:<br /><a class="manage-link" href="${link}">${link}</a></p>
        <p class="hint">${t(lang, 'waitlistLinkHint')}</p>
      </div>
      ${
        entry.status === 'WAITING'
          ? html`<form method="post" action="/${tenant.slug}/waitlist/${entry.id}/leave">
              <input type="hidden" name="token" value="${token}" /><input type="hidden" name="lang" value="${lang}" />
              <div class="error-slot" role="alert">${options.error ? html`<p class="error">${options.error}</p>` : ''}</div>
              <button type="submit">${t(lang, 'waitlistLeave')}</button>
            </form>`
          : ''
      }
    </section>
    <p><a class="button primary" href="/${tenant.slug}">${t(lang, 'bookAgain')}</a></p>`;
  sendPage({ req, res, assets: ctx.assets()!, salon: view, lang, title: heading, body, status: options.status });
}

/** GET /<slug>/waitlist/<id>?token=... */
export async function entryPage(ctx: PagesContext, req: Request, res: Response): Promise<void> {
  const found = await findEntry(ctx, String(req.params.slug), String(req.params.id), tokenOf(req.query.token));
  if (!found) return notFoundPage(ctx, req, res);
  await renderEntry(ctx, req, res, found);
}

/** POST /<slug>/waitlist/<id>/leave (form: token): the same leave as the public API's DELETE; leaving twice is harmless. */
export async function leaveFromForm(ctx: PagesContext, req: Request, res: Response): Promise<void> {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const found = await findEntry(ctx, String(req.params.slug), String(req.params.id), tokenOf(body.token));
  if (!found) return notFoundPage(ctx, req, res);
  const lang = body.lang === 'en' ? 'en' : 'nb';
  try {
    await leaveWaitlist(waitlistDeps(ctx), found.tenant, found.entry.id, found.token);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return renderEntry(ctx, req, res, found, { status: err.status >= 500 ? 503 : err.status, error: errorMessage(lang, err.code) });
  }
  res.redirect(303, `${waitlistEntryPath(found.tenant.slug, found.entry.id, found.token, lang)}&left=1`);
}
