// What the server-rendered booking page hands the v2 bundle (a JSON script element), so the first
// view needs no request: the salon, its catalogue and staff, the salon's "today", and the signed-in
// customer when there is one. Shared type of api/pages and web/src.
import type { Lang } from './format';

export interface BootService {
  id: string;
  name: string;
  description: string | null;
  duration: number;
  price: number;
  currency: string;
}

export interface BootServiceGroup {
  category: { id: string; name: string } | null;
  services: BootService[];
}

export interface BootStaff {
  id: string;
  name: string;
  jobTitle: string | null;
  serviceIds: string[];
}

export interface BootData {
  lang: Lang;
  /** the booking page's own path: `/<slug>`, or `/` on the salon's subdomain or custom domain */
  pagePath: string;
  slug: string;
  salon: {
    name: string;
    timezone: string;
    currency: string;
    locale: string;
    /** days ahead a customer may book, deposits on or off */
    maxBookingDaysInAdvance: number;
    /**
     * the deposit taken online, when the salon takes one; a visit starting more than `laterAfterMs`
     * ahead has it requested later, due `deadlineHours` before the start (docs/rules/payments.md#deposits-at-any-distance)
     */
    deposit: { type: 'percentage' | 'fixed'; value: number; laterAfterMs?: number; deadlineHours?: number } | null;
    /** free cancellation ends this many hours before the start (docs/rules/booking.md#cancellation-refund-policy) */
    cancellationHours: number;
    /** the calling code a number typed without one gets ("+47") */
    phoneCode: string;
  };
  services: BootServiceGroup[];
  staff: BootStaff[];
  /** the salon-local date today */
  today: string;
  /** customer sign-in (OpenID Connect, authorization code with PKCE); null: not offered */
  signIn: { issuer: string; clientId: string; callbackPath: string } | null;
  /** the signed-in customer (customer cookie), for prefilling the contact step */
  customer: { name: string | null; email: string | null; phone: string | null } | null;
  /** services already chosen (the form posted before the script ran, or a link that chose them) */
  chosenServices: string[];
  /** a staff member chosen by the link (`?services=...&staff=<id>`, e.g. a rebooking nudge): the page opens at the time step */
  chosenStaff: string | null;
}

/** Prefix of the per-booking cookie (name + booking id, value: its token) that lets the payment return page act for a booking just made. */
export const BOOKING_PROOF_COOKIE = 'salon_bp_';
/** How long the proof cookie lives: a checkout session is open 30 minutes; a retry may come later. */
export const BOOKING_PROOF_MAX_AGE_S = 24 * 3600;
/** The cookie that keeps the chosen language. */
export const LANG_COOKIE = 'salon_lang';
