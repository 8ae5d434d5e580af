// The embedded OpenID Connect identity provider for `npm start` and the tests: the `oidc-provider`
// package on loopback, so customer sign-in works with real signed ID tokens and no internet. It
// publishes its discovery document and JWKS like Google, Apple or Vipps do; the platform verifies
// its tokens exactly as it verifies theirs (OIDC_ISSUER, OIDC_CLIENT_ID).
//
// Sign-in is a development page: /interaction/<uid> asks for an e-mail and a name and signs that
// person in (no password). The subject is derived from the e-mail, so signing in again with the same
// e-mail is the same account. Production never imports this folder.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const DEV_OIDC_CLIENT_ID = 'salon-dev-client';
/** Where the tests' authorization-code flow ends; the code is read from the redirect, nothing listens there. */
export const DEV_OIDC_TEST_REDIRECT = 'http://127.0.0.1/oidc-test-callback';

export interface DevIdentityProvider {
  issuer: string;
  clientId: string;
  port: number;
  /**
   * Tests only: signs an ID token with the provider's own key and whatever claims the test wants
   * (a wrong issuer, audience or an expired token), to check that the platform refuses it.
   */
  signIdToken(claims: Record<string, unknown>, options?: { withForeignKey?: boolean }): Promise<string>;
  stop(): Promise<void>;
}

interface Person {
  email: string;
  name: string;
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The subject the provider gives an e-mail address: stable, not the address itself. */
export function devSubjectFor(email: string): string {
  return `dev-${crypto.createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32)}`;
}

function signInPage(uid: string, clientName: string, error?: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Development sign-in</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:24rem;margin:3rem auto;padding:0 1rem}label{display:block;margin:.8rem 0 .2rem}input{width:100%;padding:.4rem;box-sizing:border-box}button{margin-top:1rem;padding:.5rem 1rem}.note{color:#666;font-size:.9em}.error{color:#b00}</style>
</head><body>
<h1>Development sign-in</h1>
<p class="note">Embedded identity provider of the salon platform (not for production). Any e-mail signs in as that person; no password.</p>
<p>Signing in to <strong>${escapeHtml(clientName)}</strong></p>
${error ? `<p class="error">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label for="email">E-mail</label><input id="email" name="email" type="email" required autofocus>
<label for="name">Name</label><input id="name" name="name" type="text" maxlength="200">
<button type="submit">Sign in</button>
</form>
</body></html>`;
}

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 16_384) throw new Error('form too large');
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * Starts the provider on 127.0.0.1 (`port` 0: a free port). `redirectUris` are the callbacks the dev
 * client may use (the platform's /customer-sign-in page under npm start).
 */
export async function startDevIdentityProvider(options: { port?: number; redirectUris?: string[] } = {}): Promise<DevIdentityProvider> {
  // oidc-provider and jose are ES modules; a computed specifier keeps tsc from typing oidc-provider (it ships no types).
  const jose = await import('jose');
  const oidcSpecifier = 'oidc-provider';
  const { default: Provider } = (await import(oidcSpecifier)) as { default: new (issuer: string, config: Record<string, unknown>) => OidcProvider };

  const { privateKey } = await jose.generateKeyPair('RS256', { extractable: true });
  const kid = crypto.randomUUID();
  const privateJwk = { ...(await jose.exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  const foreign = await jose.generateKeyPair('RS256');

  const people = new Map<string, Person>();
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: DEV_OIDC_CLIENT_ID,
        client_name: 'Salon platform (development)',
        token_endpoint_auth_method: 'none',
        application_type: 'web',
        redirect_uris: [DEV_OIDC_TEST_REDIRECT, ...(options.redirectUris ?? [])],
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    jwks: { keys: [privateJwk] },
    cookies: { keys: [crypto.randomBytes(32).toString('base64url')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // the platform reads e-mail and name from the ID token itself, as it does with Google, Apple or Vipps
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx: unknown, sub: string) => {
      const person = people.get(sub);
      if (!person) return undefined;
      return {
        accountId: sub,
        claims: async () => ({ sub, email: person.email, email_verified: true, name: person.name }),
      };
    },
    ttl: { IdToken: 600, AccessToken: 600, AuthorizationCode: 120, Interaction: 600, Session: 3600, Grant: 3600 },
  });
  provider.proxy = false;
  const callback = provider.callback();

  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', issuer);
    const page = /^\/interaction\/([\w-]+)$/.exec(url.pathname);
    const login = /^\/interaction\/([\w-]+)\/login$/.exec(url.pathname);
    if (page && req.method === 'GET') {
      provider
        .interactionDetails(req, res)
        .then((details) => {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
          res.end(signInPage(details.uid, DEV_OIDC_CLIENT_ID));
        })
        .catch((err: Error) => {
          res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
          res.end(`This sign-in has expired or is unknown; start again (${err.message})`);
        });
      return;
    }
    if (login && req.method === 'POST') {
      (async () => {
        const details = await provider.interactionDetails(req, res);
        const form = await readForm(req);
        const email = (form.get('email') ?? '').trim().toLowerCase();
        if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
          res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
          res.end(signInPage(details.uid, DEV_OIDC_CLIENT_ID, 'Type a valid e-mail address'));
          return;
        }
        const sub = devSubjectFor(email);
        people.set(sub, { email, name: (form.get('name') ?? '').trim().slice(0, 200) || email.split('@')[0] });
        const grant = new provider.Grant({ accountId: sub, clientId: details.params.client_id as string });
        grant.addOIDCScope('openid email profile');
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { login: { accountId: sub }, consent: { grantId } }, { mergeWithLastSubmission: false });
      })().catch((err: Error) => {
        if (res.headersSent) return;
        res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`Sign-in failed: ${err.message}`);
      });
      return;
    }
    callback(req, res);
  });

  return {
    issuer,
    clientId: DEV_OIDC_CLIENT_ID,
    port,
    async signIdToken(claims, opts = {}) {
      const key = opts.withForeignKey ? foreign.privateKey : privateKey;
      const now = Math.floor(Date.now() / 1000);
      return new jose.SignJWT({ iss: issuer, aud: DEV_OIDC_CLIENT_ID, iat: now, exp: now + 600, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
        .sign(key);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The part of oidc-provider's API used here (the package ships no types). */
interface OidcProvider {
  proxy: boolean;
  callback(): (req: http.IncomingMessage, res: http.ServerResponse) => void;
  interactionDetails(req: http.IncomingMessage, res: http.ServerResponse): Promise<{ uid: string; params: Record<string, unknown> }>;
  interactionFinished(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    result: Record<string, unknown>,
    options?: { mergeWithLastSubmission?: boolean },
  ): Promise<void>;
  Grant: new (init: { accountId: string; clientId: string }) => { addOIDCScope(scope: string): void; save(): Promise<string> };
}
