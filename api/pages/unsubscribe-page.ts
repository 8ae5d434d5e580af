// The unsubscribe link of a rebooking nudge, `/<slug>/nudges/unsubscribe?customer=<id>&token=...`
// (docs/rules/series.md#rebooking-nudges): the page asks first and a plain form turns the salon's
// nudges off for this customer, so a mail client that opens links ahead of the reader changes
// nothing. Same domain call as POST /api/public/tenants/:slug/rebooking-nudges/unsubscribe.
import type { Request, Response } from 'express';
import type { PagesContext } from './context';
import { html } from './html';
import { salonBySlug, salonView, pageLang } from './salon';
import { sendPage } from './layout';
import { notFoundPage } from './booking-page';
import { t } from '../../web/shared/i18n';
import { unsubscribeFromNudges, unsubscribeLinkIsValid } from '../../domain/rebooking/rebooking.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function linkOf(source: Record<string, unknown>): { customerId: string; token: string } | undefined {
  const { customer, token } = source;
  if (typeof customer !== 'string' || !UUID.test(customer) || typeof token !== 'string' || !token || token.length > 200) return undefined;
  return { customerId: customer, token };
}

async function render(ctx: PagesContext, req: Request, res: Response, done: boolean): Promise<void> {
  const source = (req.method === 'POST' ? req.body : req.query) as Record<string, unknown>;
  const link = linkOf(source ?? {});
  const tenant = await salonBySlug(ctx.deps, String(req.params.slug));
  if (!tenant || !link || !(await unsubscribeLinkIsValid(ctx.deps.knex, ctx.deps.config.keys.rebookingUnsubscribe, tenant, link.customerId, link.token))) {
    return notFoundPage(ctx, req, res, pageLang(req, res));
  }
  if (done) await unsubscribeFromNudges(ctx.deps.knex, ctx.deps.config.keys.rebookingUnsubscribe, tenant, link.customerId, link.token);
  const view = await salonView(ctx.deps, req, res, tenant, `/${tenant.slug}`);
  const { lang } = view;
  const body = done
    ? html`<section class="card" aria-labelledby="unsubscribe-heading">
        <h2 id="unsubscribe-heading">${t(lang, 'unsubscribeHeading')}</h2>
        <p role="status" class="success">${t(lang, 'unsubscribeDone', { salon: tenant.name })}</p>
      </section>`
    : html`<section class="card" aria-labelledby="unsubscribe-heading">
        <h2 id="unsubscribe-heading">${t(lang, 'unsubscribeHeading')}</h2>
        <p>${t(lang, 'unsubscribeBody', { salon: tenant.name })}</p>
        <form method="post" action="/${tenant.slug}/nudges/unsubscribe">
          <input type="hidden" name="customer" value="${link.customerId}" /><input type="hidden" name="token" value="${link.token}" /><input
            type="hidden"
            name="lang"
            value="${lang}"
          />
          <button type="submit" class="primary">${t(lang, 'unsubscribeButton')}</button>
        </form>
      </section>`;
  sendPage({ req, res, assets: ctx.assets()!, salon: view, lang, title: t(lang, 'unsubscribeHeading'), body });
}

/** GET /<slug>/nudges/unsubscribe?customer=&token= : asks first. */
export function unsubscribePage(ctx: PagesContext, req: Request, res: Response): Promise<void> {
  return render(ctx, req, res, false);
}

/** POST /<slug>/nudges/unsubscribe (form: customer, token): turns the nudges off and says so. */
export function unsubscribeFromForm(ctx: PagesContext, req: Request, res: Response): Promise<void> {
  return render(ctx, req, res, true);
}
