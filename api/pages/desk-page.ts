// The front desk's page (docs/rules/front-desk.md): GET /desk on the platform host and on a salon's
// own host. The shell paints at once (its heading and a line that it loads); the bundle then takes
// over and calls only the public API. The salon comes from the host, or from `?salon=<slug>` on the
// platform host, so the sign-in can name it. The page's own scripts and stylesheet only, no inline
// script or style, nothing from another host; never cached, never framed.
import type { Request, Response } from 'express';
import type { AppDeps } from '../deps';
import type { PageAssets } from './assets';
import { html, jsonScript } from './html';
import { pageLang, salonByHost, salonBySlug } from './salon';
import type { DeskBoot } from '../../web/shared/desk-boot';

const TITLE = { nb: 'Resepsjonen', en: 'Front desk' } as const;
const LOADING = { nb: 'Laster …', en: 'Loading …' } as const;

export async function deskPage(deps: AppDeps, assets: PageAssets, req: Request, res: Response): Promise<void> {
  const lang = pageLang(req, res);
  const asked = typeof req.query.salon === 'string' ? req.query.salon : undefined;
  const tenant = (await salonByHost(deps, req)) ?? (asked ? await salonBySlug(deps, asked) : undefined);
  const boot: DeskBoot = { lang, salon: tenant ? { slug: tenant.slug, name: tenant.name } : null };
  const title = tenant ? `${TITLE[lang]} – ${tenant.name}` : TITLE[lang];
  const { desk } = assets;
  const page = html`<!doctype html>
    <html lang="${lang}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>${title}</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="${desk.styles}" />
        ${desk.imports.map((href) => html`<link rel="modulepreload" href="${href}" />`)}
        <script type="module" src="${desk.entry}"></script>
      </head>
      <body>
        <div id="desk">
          <main id="main" class="signin-page">
            <h1>${title}</h1>
            <p>${LOADING[lang]}</p>
          </main>
        </div>
        <script type="application/json" id="desk-boot">
          ${jsonScript(boot)}
        </script>
      </body>
    </html> `;
  res.setHeader(
    'Content-Security-Policy',
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  );
  res.setHeader('Cache-Control', 'no-store');
  res.status(200).type('html').send(page.value);
}
