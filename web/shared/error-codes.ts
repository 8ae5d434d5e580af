// Codes the page itself uses besides the API's own (shared/i18n has a message for each). Kept apart
// from the message tables so code that only needs the codes does not carry every text.

/** Shown when the answer carries a code the message table does not know, or no usable answer came. */
export const UNKNOWN_ERROR = 'UNKNOWN_ERROR';
/** The browser could not reach the platform (no answer). */
export const NETWORK_ERROR = 'NETWORK_ERROR';
