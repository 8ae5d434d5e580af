// The frame of every customer page: head (stylesheet, the salon's colour variables, scripts), the
// salon's header (cover, logo, name, address, language switch), main, and a footer with the salon's
// description, address, phone and e-mail, and opening hours. Headings: h1 the salon, h2 the page's sections.
import crypto from 'node:crypto';
import type { Request, Response } from 'express';
import { html, raw, type Html } from './html';
import type { SalonView } from './salon';
import type { PageAssets } from './assets';
import { t } from '../../web/shared/i18n';
import { addDays, formatLocalDate, type Lang } from '../../web/shared/format';
import { addressLine } from '../../domain/booking/booking-calendar.service';
import { sanitizeDescription } from '../../domain/tenant/tenant-validation';
import { salonContact } from './salon-contact';

export interface PageOptions {
  req: Request;
  res: Response;
  assets: PageAssets;
  salon?: SalonView;
  lang: Lang;
  title: string;
  body: Html;
  /** scripts (type=module) and preloads for the head */
  scripts?: { entry: string; imports: string[] };
  /** extra head markup (e.g. a refresh while waiting) */
  head?: Html;
  status?: number;
  /** connect-src beyond 'self' (the identity provider the page signs in with) */
  connect?: string[];
}

/** Sunday 7 January 2024 plus n days: a date of each weekday, for weekday names. */
const weekdayName = (dayOfWeek: number, locale: string) => formatLocalDate(addDays('2024-01-07', dayOfWeek), locale, { weekday: 'long' });

function openingHours(salon: SalonView): Html {
  const hours = (salon.tenant.settings.businessHours ?? []) as { dayOfWeek: number; isOpen: boolean; slots: { startTime: string; endTime: string }[] }[];
  if (hours.length === 0) return html``;
  const ordered = [1, 2, 3, 4, 5, 6, 0].map((d) => hours.find((h) => h.dayOfWeek === d)).filter((h): h is (typeof hours)[number] => !!h);
  return html`<section aria-labelledby="hours-heading">
    <h2 id="hours-heading">${t(salon.lang, 'openingHours')}</h2>
    <table>
      <tbody>
        ${ordered.map(
          (h) =>
            html`<tr>
              <th scope="row">${weekdayName(h.dayOfWeek, salon.locale)}</th>
              <td>${h.isOpen && h.slots.length ? h.slots.map((s) => `${s.startTime}–${s.endTime}`).join(', ') : t(salon.lang, 'closed')}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </section>`;
}

/** The current URL with `lang` set to the other language (keeps the rest of the query). */
function otherLanguageHref(req: Request, lang: Lang): string {
  const url = new URL(req.originalUrl, 'http://page.local');
  url.searchParams.set('lang', lang === 'nb' ? 'en' : 'nb');
  return url.pathname + url.search;
}

function header(salon: SalonView | undefined, req: Request, lang: Lang): Html {
  const switcher = html`<a
    class="lang"
    data-lang-switch
    href="${otherLanguageHref(req, lang)}"
    hreflang="${lang === 'nb' ? 'en' : 'nb'}"
    lang="${lang === 'nb' ? 'en' : 'nb'}"
    aria-label="${t(lang, 'otherLanguageLabel')}"
    >${t(lang, 'otherLanguage')}</a
  >`;
  if (!salon)
    return html`<header class="salon-header">
      <div class="inner">
        <p class="name">${''}</p>
        ${switcher}
      </div>
    </header>`;
  const { images } = salon;
  const cover = images.cover
    ? html`<picture
        >${images.coverMobile ? html`<source media="(max-width: 40rem)" srcset="${images.coverMobile}" />` : ''}<img
          class="cover"
          src="${images.cover}"
          alt=""
          width="1920"
          height="480"
          fetchpriority="high"
      /></picture>`
    : '';
  const address = addressLine(salon.tenant.address);
  return html`<header class="salon-header">
    ${cover}
    <div class="inner">
      ${images.logo ? html`<img class="logo" src="${images.logo}" alt="" width="64" height="64" />` : ''}
      <div>
        <h1>${salon.tenant.name}</h1>
        ${address ? html`<p class="address">${address}</p>` : ''}
      </div>
      ${switcher}
    </div>
  </header>`;
}

function footer(salon: SalonView | undefined): Html {
  if (!salon) return html``;
  const description = sanitizeDescription(salon.tenant.description);
  const address = addressLine(salon.tenant.address);
  return html`<footer class="page-footer">
    ${
      description
        ? html`<section class="about" aria-labelledby="about-heading">
            <h2 id="about-heading">${t(salon.lang, 'aboutSalon')}</h2>
            ${raw(description)}
          </section>`
        : ''
    }${address ? html`<p><strong>${t(salon.lang, 'address')}:</strong> ${address}</p>` : ''}${salonContact(salon.lang, salon.tenant)}${openingHours(salon)}
  </footer>`;
}

export function sendPage(options: PageOptions): void {
  const { req, res, assets, salon, lang } = options;
  const nonce = crypto.randomBytes(16).toString('base64');
  const colours = salon?.colours;
  const salonColours = colours
    ? `:root{--brand:${colours.brand};--on-brand:${colours.onBrand};--brand-text:${colours.brandText};--accent-text:${colours.accentText}}`
    : '';
  // our own stylesheet and the salon's checked colours (pageColours), never customer input; on one
  // line, as the stylesheet was built (the formatter would indent it inside the element)
  // prettier-ignore
  const style = html`<style nonce="${nonce}">${raw(assets.styles)}${raw(salonColours)}</style>`;
  const scripts = options.scripts
    ? html`${options.scripts.imports.map((href) => html`<link rel="modulepreload" href="${href}" />`)}
        <script type="module" src="${options.scripts.entry}"></script>`
    : '';
  const page = html`<!doctype html>
    <html lang="${lang}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${options.title}</title>
        <link rel="icon" href="data:," />
        ${style}
        <noscript
          ><style nonce="${nonce}">
            .needs-js {
              display: none;
            }
          </style></noscript
        >
        ${scripts}${options.head ?? ''}
      </head>
      <body>
        <a class="skip-link" href="#main">${t(lang, 'skipToContent')}</a>
        ${header(salon, req, lang)}
        <main id="main" tabindex="-1">${options.body}</main>
        ${footer(salon)}
      </body>
    </html> `;
  const connect = ["'self'", ...(options.connect ?? [])].join(' ');
  res.setHeader(
    'Content-Security-Policy',
    `default-src 'self'; script-src 'self'; style-src 'self' 'nonce-${nonce}'; img-src 'self' data:; connect-src ${connect}; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`,
  );
  res.setHeader('Cache-Control', 'no-store');
  res
    .status(options.status ?? 200)
    .type('html')
    .send(page.value);
}
