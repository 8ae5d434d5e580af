// ID-token verification with `jose` (never by hand): the signing keys come from the provider's
// published JWKS (createRemoteJWKSet caches them and refetches on an unknown `kid`), and jwtVerify
// checks the signature, the exact issuer, the audience (our client id), `exp`/`nbf` with a small
// clock tolerance, and the algorithm. The nonce must equal the one the client sent. The JWKS address
// is OIDC_JWKS_URI or, when unset, the `jwks_uri` of the issuer's discovery document.
import type { OidcConfig } from '../../config';
import { errors } from '../../domain/errors';
import type { IdTokenVerifier, VerifiedIdentity } from '../../domain/customer-account/id-token-verifier';

const CLOCK_TOLERANCE_SECONDS = 30;
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA'];

type Jose = typeof import('jose', { with: { 'resolution-mode': 'import' } });
let josePromise: Promise<Jose> | undefined;
/** jose is an ES module; loaded once with a dynamic import. */
export const loadJose = (): Promise<Jose> => (josePromise ??= import('jose'));

async function discoverJwksUri(issuer: string): Promise<string> {
  const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(5000) });
  } catch (err) {
    throw errors.unavailable('IDENTITY_PROVIDER_UNAVAILABLE', `The identity provider could not be reached (${(err as Error).message})`);
  }
  if (!res.ok) throw errors.unavailable('IDENTITY_PROVIDER_UNAVAILABLE', `The identity provider's discovery document answered ${res.status}`);
  const doc = (await res.json()) as { jwks_uri?: unknown };
  if (typeof doc.jwks_uri !== 'string') throw errors.unavailable('IDENTITY_PROVIDER_UNAVAILABLE', 'The discovery document names no jwks_uri');
  return doc.jwks_uri;
}

/** What a jose failure means for the caller, in one line. */
function reasonOf(err: unknown): string {
  const e = err as { code?: string; claim?: string; message?: string };
  switch (e.code) {
    case 'ERR_JWT_EXPIRED':
      return 'ID token has expired';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      if (e.claim === 'iss') return 'ID token issuer is not accepted';
      if (e.claim === 'aud') return 'ID token audience is not this platform';
      return `ID token claim ${e.claim ?? ''} is not valid`.replace('  ', ' ');
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return 'ID token signature is not valid';
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return 'ID token algorithm is not accepted';
    default:
      return 'ID token is not valid';
  }
}

export class JoseIdTokenVerifier implements IdTokenVerifier {
  private jwks?: Promise<ReturnType<Jose['createRemoteJWKSet']>>;

  constructor(private readonly config: OidcConfig) {}

  private keys(): Promise<ReturnType<Jose['createRemoteJWKSet']>> {
    this.jwks ??= (async () => {
      const jose = await loadJose();
      const uri = this.config.jwksUri ?? (await discoverJwksUri(this.config.issuer));
      return jose.createRemoteJWKSet(new URL(uri), { timeoutDuration: 5000, cooldownDuration: 30_000 });
    })();
    // a failed discovery is retried on the next sign-in
    this.jwks.catch(() => (this.jwks = undefined));
    return this.jwks;
  }

  async verify(idToken: string, nonce: string): Promise<VerifiedIdentity> {
    const jose = await loadJose();
    const keys = await this.keys();
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jose.jwtVerify(idToken, keys, {
        issuer: this.config.issuer,
        audience: this.config.audiences,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['sub', 'exp', 'iat'],
      }));
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'ERR_JWKS_TIMEOUT' || (err instanceof TypeError && /fetch/i.test(err.message))) {
        throw errors.unavailable('IDENTITY_PROVIDER_UNAVAILABLE', "The identity provider's signing keys could not be fetched");
      }
      throw errors.unauthorized(reasonOf(err));
    }
    if (typeof payload.nonce !== 'string' || payload.nonce !== nonce) throw errors.unauthorized('ID token nonce does not match');
    if (typeof payload.sub !== 'string' || payload.sub.length === 0 || payload.sub.length > 255) throw errors.unauthorized('ID token subject is not valid');
    const email = typeof payload.email === 'string' && payload.email.length <= 254 ? payload.email.trim().toLowerCase() : null;
    const name = typeof payload.name === 'string' ? payload.name.trim().slice(0, 200) || null : null;
    return {
      issuer: String(payload.iss),
      subject: payload.sub,
      email,
      // Apple sends "true" as a string
      emailVerified: payload.email_verified === true || payload.email_verified === 'true',
      name,
      expiresAt: new Date(Number(payload.exp) * 1000),
    };
  }
}
