// Every cookie the api sets (docs/rules/security.md#browsers): HttpOnly, SameSite lax, and Secure by one
// rule, the production setting (NODE_ENV=production), never the request's own scheme: behind a proxy
// that ends TLS with TRUST_PROXY=0 the request looks like plain http, and a cookie would go without it.
import type { CookieOptions, Request } from 'express';

/** The app's one answer to "Secure?" (app.locals), so a page can set a cookie from its request alone. */
export const COOKIE_SECURE_LOCAL = 'cookieSecure';

/** The rule: Secure in production. */
export function cookiesAreSecure(config: { nodeEnv: string }): boolean {
  return config.nodeEnv === 'production';
}

/** The options every cookie starts from, with Secure as the rule says. */
export function cookieBaseOf(config: { nodeEnv: string }): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure: cookiesAreSecure(config) };
}

/** The same options for a cookie set where only the request is at hand (the pages). */
export function cookieOptionsFor(req: Request, options: CookieOptions): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', ...options, secure: req.app.locals[COOKIE_SECURE_LOCAL] === true };
}
