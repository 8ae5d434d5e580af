// Drives the embedded identity provider's authorization-code flow over HTTP, as a browser and a
// public client would (PKCE, nonce, the development sign-in form), and returns the real ID token it
// issues. Used by the tests; a person does the same by hand in a browser.
import crypto from 'node:crypto';
import { DEV_OIDC_TEST_REDIRECT, type DevIdentityProvider } from './dev-identity-provider';

class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq > 0) this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

async function step(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: jar.header() } });
  jar.take(res);
  return res;
}

function locationOf(res: Response, base: string): string {
  const location = res.headers.get('location');
  if (!location) throw new Error(`identity provider answered ${res.status} without a redirect`);
  return new URL(location, base).toString();
}

export interface DevSignInResult {
  idToken: string;
  nonce: string;
}

/** Signs `email` in at the embedded provider and returns its ID token (bound to `nonce`, random if not given). */
export async function devSignIn(
  idp: Pick<DevIdentityProvider, 'issuer' | 'clientId'>,
  person: { email: string; name?: string; nonce?: string },
): Promise<DevSignInResult> {
  const jar = new CookieJar();
  const nonce = person.nonce ?? crypto.randomBytes(16).toString('base64url');
  const verifier = crypto.randomBytes(32).toString('base64url');
  const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
  const auth = new URL('/auth', idp.issuer);
  auth.search = new URLSearchParams({
    client_id: idp.clientId,
    response_type: 'code',
    scope: 'openid email profile',
    redirect_uri: DEV_OIDC_TEST_REDIRECT,
    nonce,
    state: crypto.randomUUID(),
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();

  let res = await step(jar, auth.toString());
  const interaction = locationOf(res, idp.issuer);
  res = await step(jar, `${interaction}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: person.email, name: person.name ?? '' }).toString(),
  });
  let next = locationOf(res, idp.issuer);
  // resume at the provider until it redirects to the client's callback with the code
  for (let hops = 0; !next.startsWith(DEV_OIDC_TEST_REDIRECT); hops++) {
    if (hops > 5) throw new Error(`sign-in did not reach the callback (at ${next})`);
    res = await step(jar, next);
    next = locationOf(res, idp.issuer);
  }
  const code = new URL(next).searchParams.get('code');
  if (!code) throw new Error(`no code in the callback: ${next}`);
  const token = await fetch(new URL('/token', idp.issuer), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: DEV_OIDC_TEST_REDIRECT,
      client_id: idp.clientId,
      code_verifier: verifier,
    }).toString(),
  });
  const body = (await token.json()) as { id_token?: string; error?: string; error_description?: string };
  if (!body.id_token) throw new Error(`token endpoint: ${body.error ?? token.status} ${body.error_description ?? ''}`);
  return { idToken: body.id_token, nonce };
}
