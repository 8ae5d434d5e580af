// The per-booking proof cookie: `salon_bp_<booking id>` holds the booking's manage token for a
// day, so the payment return page (which the provider reaches with the payment id only) can show the
// manage link and offer a retry for the booking this browser just made. The v2 page sets the same
// cookie from the browser.
import type { Request, Response } from 'express';
import { BOOKING_PROOF_COOKIE, BOOKING_PROOF_MAX_AGE_S } from '../../web/shared/boot';
import { cookieOptionsFor } from '../cookies';

export function setProofCookie(req: Request, res: Response, bookingId: string, token: string): void {
  // Secure by the one rule of every cookie (api/cookies.ts), not by req.secure
  res.cookie(`${BOOKING_PROOF_COOKIE}${bookingId}`, token, cookieOptionsFor(req, { path: '/', maxAge: BOOKING_PROOF_MAX_AGE_S * 1000 }));
}

export function proofToken(req: Request, bookingId: string): string | undefined {
  const value = req.cookies?.[`${BOOKING_PROOF_COOKIE}${bookingId}`];
  return typeof value === 'string' && value.length > 0 && value.length <= 200 ? value : undefined;
}

/** Whether a cookie is a booking proof cookie (the Origin check guards requests that carry one, api/middleware/cors.ts). */
export function isProofCookieName(name: string): boolean {
  return name.startsWith(BOOKING_PROOF_COOKIE);
}
