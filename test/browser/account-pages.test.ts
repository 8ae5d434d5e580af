// The small self-contained pages under their own Content-Security-Policy (docs/rules/security.md#browsers),
// in a real browser that enforces it (these contexts do not bypass CSP): the password-reset page from
// the link of its mail, and the customer sign-in page; their own inline script runs, and nothing is
// refused that the page needs.
import { expect } from 'chai';
import type { BrowserContext } from 'playwright-core';
import { sharedBrowser } from '../support/chromium';
import { stack } from '../support/stack';
import { call } from '../support/http';
import { createSalon } from '../support/factories';
import { eventually } from '../support/eventually';
import { startBrowserStack } from './support';

describe('account pages under their CSP (browser)', function () {
  this.timeout(60_000);
  before(startBrowserStack);
  let context: BrowserContext | undefined;
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  async function enforcingPage() {
    context = await (await sharedBrowser()).newContext({ bypassCSP: false, locale: 'nb-NO' });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    return { page, violations };
  }

  it('when the owner opens the reset link of the mail then the page sets the new password under its CSP, and the new password signs in', async () => {
    const { owner } = await createSalon();
    const { platform } = await stack();
    expect((await call('post', '/auth/forgot-password', undefined, { email: owner.email })).status).to.equal(200);
    const mail = await eventually(async () => (await platform.mailer.sentTo(owner.email)).find((m) => m.meta?.kind === 'PASSWORD_RESET'), 'the reset mail');
    const link = /(http:\/\/\S+\/reset-password\?token=\S+)/.exec(mail.text)![1];
    const { page, violations } = await enforcingPage();
    const res = await page.goto(link);
    expect(res!.headers()['content-security-policy']).to.match(/default-src 'none'; script-src 'sha256-/);
    await page.getByLabel('Nytt passord (minst 12 tegn)').fill('reset-in-browser-1');
    await page.getByLabel('Gjenta passordet').fill('reset-in-browser-1');
    await page.getByRole('button', { name: 'Lagre passord' }).click();
    await page.getByText('Passordet er endret. Du kan nå logge inn.').waitFor();
    expect(violations).to.deep.equal([]);
    expect((await call('post', '/auth/login', undefined, { email: owner.email, password: 'reset-in-browser-1' })).status).to.equal(200);
  });

  it('when the customer sign-in page is opened then its script runs under its CSP (it shows the provider and who is signed in)', async () => {
    const { baseUrl, config } = await stack();
    const { page, violations } = await enforcingPage();
    const res = await page.goto(`${baseUrl}/customer-sign-in`);
    expect(res!.headers()['content-security-policy']).to.contain(`connect-src 'self' ${new URL(config.oidc!.issuer).origin}`);
    await page.getByText('Not signed in').waitFor();
    expect(await page.locator('#issuer').innerText()).to.equal(config.oidc!.issuer);
    expect(violations).to.deep.equal([]);
  });
});
