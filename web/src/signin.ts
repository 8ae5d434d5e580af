// Customer sign-in from the booking page: the OpenID Connect authorization-code flow with PKCE and a
// nonce. The platform's /customer-sign-in page is the registered callback: it exchanges the code,
// posts the ID token to POST /api/auth/customer/oauth (which sets the customer cookies) and sends
// the customer back to the path kept under `oidc-return`.
import type { BootData } from '../shared/boot';

const b64url = (bytes: ArrayBuffer | Uint8Array) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const random = () => b64url(crypto.getRandomValues(new Uint8Array(32)));

export async function startSignIn(signIn: NonNullable<BootData['signIn']>, returnPath: string): Promise<void> {
  const discovery = (await (await fetch(`${signIn.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`)).json()) as { authorization_endpoint: string };
  const nonce = random();
  const state = random();
  const verifier = random();
  const challenge = b64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  sessionStorage.setItem('oidc', JSON.stringify({ nonce, state, verifier }));
  sessionStorage.setItem('oidc-return', returnPath);
  const query = new URLSearchParams({
    client_id: signIn.clientId,
    response_type: 'code',
    scope: 'openid email profile',
    redirect_uri: location.origin + signIn.callbackPath,
    nonce,
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  location.assign(`${discovery.authorization_endpoint}?${query}`);
}
