// GET /customer-sign-in: a minimal relying-party page (no build step) so a person can sign in as a
// customer by hand in a browser: it sends them to the configured OpenID Connect provider
// (authorization code with PKCE and a nonce), exchanges the code at the provider's token endpoint,
// and posts the ID token with its nonce to POST /api/auth/customer/oauth, which sets the customer
// cookies. With `npm start` the provider is the embedded one (type any e-mail). A provider that needs
// a client secret for the code exchange (Google for web clients) is signed in by the app's own
// backend instead; this page is for public clients. It is also the callback of the booking page's
// sign-in, which leaves the path to return to under sessionStorage `oidc-return`.
import type { RequestHandler } from 'express';
import type { OidcConfig } from '../../config';
import { inlinePageCsp } from './inline-page-csp';

const page = (issuer: string, clientId: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Customer sign-in</title>
<style>body{font-family:system-ui,sans-serif;max-width:30rem;margin:4rem auto;padding:0 1rem}pre{background:#f4f4f4;padding:.6rem;white-space:pre-wrap}button{padding:.5rem 1rem}</style>
</head>
<body>
<h1>Customer sign-in</h1>
<p>Provider: <code id="issuer"></code></p>
<button id="start">Sign in</button> <button id="out">Sign out</button>
<pre id="status" role="status"></pre>
<script>
const ISSUER = ${JSON.stringify(issuer)}, CLIENT_ID = ${JSON.stringify(clientId)};
const REDIRECT = location.origin + location.pathname;
const status = document.getElementById('status');
document.getElementById('issuer').textContent = ISSUER;
const b64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
const random = () => b64url(crypto.getRandomValues(new Uint8Array(32)));
const discovery = () => fetch(ISSUER.replace(/\\/$/, '') + '/.well-known/openid-configuration').then((r) => r.json());
async function showMe() {
  const res = await fetch('/api/customer/me', { credentials: 'same-origin' });
  status.textContent = res.ok ? 'Signed in as\\n' + JSON.stringify((await res.json()).data, null, 2) : 'Not signed in';
}
document.getElementById('start').onclick = async () => {
  const d = await discovery();
  const nonce = random(), state = random(), verifier = random();
  const challenge = b64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  sessionStorage.setItem('oidc', JSON.stringify({ nonce, state, verifier }));
  const q = new URLSearchParams({ client_id: CLIENT_ID, response_type: 'code', scope: 'openid email profile', redirect_uri: REDIRECT, nonce, state, code_challenge: challenge, code_challenge_method: 'S256' });
  location.assign(d.authorization_endpoint + '?' + q);
};
document.getElementById('out').onclick = async () => {
  await fetch('/api/auth/customer/logout', { method: 'POST', credentials: 'same-origin' });
  await showMe();
};
(async () => {
  const params = new URLSearchParams(location.search);
  const saved = JSON.parse(sessionStorage.getItem('oidc') || 'null');
  if (!params.get('code') || !saved) return showMe();
  history.replaceState(null, '', REDIRECT);
  sessionStorage.removeItem('oidc');
  if (params.get('state') !== saved.state) { status.textContent = 'State mismatch; start again'; return; }
  const d = await discovery();
  const token = await fetch(d.token_endpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: params.get('code'), redirect_uri: REDIRECT, client_id: CLIENT_ID, code_verifier: saved.verifier }) }).then((r) => r.json());
  if (!token.id_token) { status.textContent = 'The provider gave no ID token: ' + JSON.stringify(token); return; }
  const res = await fetch('/api/auth/customer/oauth', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ idToken: token.id_token, nonce: saved.nonce }) });
  if (!res.ok) { status.textContent = 'Sign-in refused: ' + JSON.stringify((await res.json()).error); return; }
  // a page that sent the customer here to sign in (the booking page) gets them back
  const back = sessionStorage.getItem('oidc-return');
  sessionStorage.removeItem('oidc-return');
  if (back && back.startsWith('/') && !back.startsWith('//')) return location.replace(back);
  await showMe();
})();
</script>
</body>
</html>`;

export function customerSignInPage(oidc: OidcConfig | undefined): RequestHandler {
  // the page talks to the api and to the provider (its discovery document and token endpoint, on the issuer's origin)
  const html = oidc ? page(oidc.issuer, oidc.audiences[0]) : '';
  const csp = oidc ? inlinePageCsp(html, [new URL(oidc.issuer).origin]) : '';
  return (_req, res) => {
    if (!oidc) {
      res.status(404).type('text/plain').send('Customer sign-in is not configured (OIDC_ISSUER)');
      return;
    }
    res.set({ 'cache-control': 'no-store', 'content-security-policy': csp }).type('html').send(html);
  };
}
