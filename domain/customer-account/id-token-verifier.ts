// The port through which customer sign-in checks an ID token of the external OpenID Connect
// provider (POST /auth/customer/oauth, docs/rules/auth.md#customer-sign-in). integrations/oidc/ implements it with `jose`
// against the provider's published keys; the domain only sees a verified identity or a 401.

export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  /** the token's `exp`: a used nonce is remembered until then */
  expiresAt: Date;
}

export interface IdTokenVerifier {
  /**
   * Signature against the provider's published keys, `iss`, `aud`, `exp` (and `iat`), and that the
   * token carries exactly `nonce`. Throws AppError 401 UNAUTHORIZED naming what failed.
   */
  verify(idToken: string, nonce: string): Promise<VerifiedIdentity>;
}
