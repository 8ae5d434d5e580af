// Which salon a customer page is for, in which language, and what it looks like: the salon from the
// path's slug or from the host (`<slug>.<PLATFORM_DOMAIN>` or the salon's custom domain), the
// language from `?lang=` (kept in a cookie) or Norwegian, and the salon's colours and images (logo
// and cover through the signed image proxy, as same-origin paths).
import { cookieOptionsFor } from '../cookies';
import type { Request, Response } from 'express';
import type { AppDeps } from '../deps';
import { isLang } from '../../web/shared/i18n';
import { intlLocale, type Lang } from '../../web/shared/format';
import { pageColours, type PageColours } from '../../web/shared/contrast';
import { LANG_COOKIE } from '../../web/shared/boot';
import { publicTenantBySlug } from '../../domain/public/public-portal.service';
import type { PublicTenant } from '../../domain/public/public-portal.repository';
import { tenantById, tenantIdByHost } from '../../domain/tenant/tenant-context';
import { signImageUrl } from '../../domain/upload/image-proxy.service';
import type { AppError } from '../../domain/errors';
import { nowOf } from '../../domain/time/clock';
import { callingCodeOf, phoneRegionOf } from '../../domain/phone/phone.rules';

export interface SalonImages {
  logo?: string;
  cover?: string;
  coverMobile?: string;
}

export interface SalonView {
  tenant: PublicTenant;
  lang: Lang;
  /** Intl locale of the page (the salon's in Norwegian) */
  locale: string;
  /** the booking page's path: `/<slug>`, or `/` on the salon's own host */
  pagePath: string;
  colours: PageColours;
  images: SalonImages;
  /** the calling code a phone number typed without one gets ("+47": the salon's country) */
  phoneCode: string;
}

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** The page language: `?lang=` (remembered), the remembered one, or Norwegian. */
export function pageLang(req: Request, res: Response): Lang {
  const asked = req.query.lang;
  if (isLang(asked)) {
    res.cookie(LANG_COOKIE, asked, cookieOptionsFor(req, { path: '/', maxAge: 365 * 24 * 3600 * 1000 }));
    return asked;
  }
  const kept = req.cookies?.[LANG_COOKIE];
  return isLang(kept) ? kept : 'nb';
}

export function isSlug(value: string): boolean {
  return value.length <= 63 && SLUG.test(value);
}

/** The salon of a page under `/<slug>`; undefined when there is none. */
export async function salonBySlug(deps: AppDeps, slug: string): Promise<PublicTenant | undefined> {
  if (!isSlug(slug)) return undefined;
  try {
    return await publicTenantBySlug(deps.knex, slug);
  } catch (err) {
    if ((err as AppError).code === 'TENANT_NOT_FOUND') return undefined;
    throw err;
  }
}

/** The salon whose subdomain or custom domain the request came to; undefined on the platform's own host. */
export async function salonByHost(deps: AppDeps, req: Request): Promise<PublicTenant | undefined> {
  const host = (req.hostname ?? '').toLowerCase();
  const platform = deps.config.platformDomain.toLowerCase();
  if (!host || host === platform || /^(localhost|[\d.]+|\[.*\])$/.test(host)) return undefined;
  const suffix = `.${platform}`;
  const id = await tenantIdByHost(deps.knex, host.endsWith(suffix) ? { slug: host.slice(0, -suffix.length) } : { customDomain: host });
  if (!id) return undefined;
  return salonBySlug(deps, (await tenantById(deps.knex, id)).slug);
}

async function signed(deps: AppDeps, key: unknown): Promise<string | undefined> {
  if (typeof key !== 'string' || !key) return undefined;
  try {
    const { url } = await signImageUrl(
      { knex: deps.knex, storage: deps.storage, secret: deps.config.storage.imageProxySecret, publicBaseUrl: deps.config.publicBaseUrl },
      { role: 'CUSTOMER', tenantId: null },
      { key },
      nowOf(deps).getTime(),
    );
    // same origin on every host the page is served on (platform host, subdomain, custom domain)
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return undefined; // an image that is gone or not public is left out, never an error page
  }
}

export async function salonView(deps: AppDeps, req: Request, res: Response, tenant: PublicTenant, pagePath: string): Promise<SalonView> {
  const lang = pageLang(req, res);
  const branding = (tenant.branding ?? {}) as Record<string, unknown>;
  const [logo, cover, coverMobile] = await Promise.all([
    signed(deps, branding.logoKey),
    signed(deps, branding.coverKey),
    signed(deps, branding.coverMobileKey),
  ]);
  const locale = intlLocale(lang, (tenant.settings as { locale?: string }).locale ?? 'nb-NO');
  return {
    tenant,
    lang,
    locale,
    pagePath,
    colours: pageColours(branding),
    images: { logo, cover, coverMobile },
    phoneCode: callingCodeOf(phoneRegionOf(tenant)),
  };
}
