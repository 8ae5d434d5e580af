// Every error the public API can answer has a message in both languages: the codes are read from
// openapi.yaml (the preflight errors in its description, and every code named by an operation of the
// public portal or the customer's account), plus the few the contract names only as a status.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { loadOpenApi } from '../../../api/openapi';
import { ERROR_MESSAGES, NETWORK_ERROR, UNKNOWN_ERROR, errorMessage, freeTimes, t } from '../../../web/shared/i18n';

const CODE = /\b[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+\b/g;
/** Upper-snake words in the contract that are not error codes. */
const NOT_CODES = new Set([
  'OIDC_ISSUER',
  'OIDC_CLIENT_ID',
  'RETRY_PENDING',
  'REFUND_FULL',
  'IN_PERSON',
  'FREE_SERVICE',
  'DISCOUNT_PERCENT',
  'DISCOUNT_AMOUNT',
  'IN_PROGRESS',
  'NO_SHOW',
  'WALK_IN',
  'STAMP_XXXX_XXXX',
  'PUBLIC_BASE_URL',
]);
/** Named by status in the contract, not by code. */
const ALWAYS = [
  'UNAUTHORIZED',
  'FORBIDDEN',
  'RATE_LIMIT_EXCEEDED',
  'VALIDATION_ERROR',
  'LOYALTY_VOUCHER_NOT_OWNED',
  'LOYALTY_VOUCHER_RESERVED_OTHER',
  'LOYALTY_VOUCHER_GUEST_NOT_ALLOWED',
  'PROVIDER_UNAVAILABLE',
];

/** What the one place that maps errors to HTTP can answer on any route (unknown routes and methods, races, broken references). */
function errorHandlerCodes(): string[] {
  const source = fs.readFileSync(path.resolve(__dirname, '../../../api/middleware/error-handler.ts'), 'utf8');
  return [...source.matchAll(/'([A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+)'/g)].map((m) => m[1]);
}

function publicErrorCodes(): string[] {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const doc = loadOpenApi() as any;
  const codes = new Set<string>([...String(doc.info.description).matchAll(CODE)].map((m) => m[0]));
  for (const [path, item] of Object.entries<Record<string, { tags?: string[]; responses?: Record<string, { $ref?: string }> }>>(doc.paths)) {
    for (const op of Object.values(item)) {
      if (!op?.tags || !(op.tags.includes('public') || op.tags.includes('customer-accounts') || path.startsWith('/public/'))) continue;
      const text =
        JSON.stringify(op) +
        Object.values(op.responses ?? {})
          .map((r) => (r.$ref ? JSON.stringify(doc.components.responses[r.$ref.split('/').pop()!]) : ''))
          .join(' ');
      for (const m of text.matchAll(CODE)) codes.add(m[0]);
    }
  }
  return [...codes, ...ALWAYS, ...errorHandlerCodes()].filter((c) => !NOT_CODES.has(c));
}

describe('booking page texts', () => {
  it('when the public API answers any of its error codes then the page has a message for it in Norwegian and English', () => {
    const codes = publicErrorCodes();
    expect(codes.length).to.be.greaterThan(30);
    const missing = codes.filter((code) => !ERROR_MESSAGES[code]?.nb || !ERROR_MESSAGES[code]?.en);
    expect(missing).to.deep.equal([]);
  });

  it('when the code is unknown or no answer came then a general message is shown, not nothing', () => {
    expect(errorMessage('nb', 'SOMETHING_NEW')).to.equal(ERROR_MESSAGES[UNKNOWN_ERROR].nb);
    expect(errorMessage('en', undefined)).to.equal(ERROR_MESSAGES[UNKNOWN_ERROR].en);
    expect(errorMessage('nb', NETWORK_ERROR)).to.contain('nettforbindelsen');
    expect(errorMessage('en', 'BOOKING_CONFLICT')).to.contain('just taken');
  });

  it('when a text has placeholders then they are filled, and counts read naturally', () => {
    expect(t('nb', 'stepOf', { n: 2, total: 4 })).to.equal('Steg 2 av 4');
    expect(t('en', 'closedHeading', { salon: 'Salong Nordlys' })).to.equal('Salong Nordlys is not taking online bookings right now.');
    expect([0, 1, 5].map((n) => freeTimes('nb', n))).to.deep.equal(['ingen ledige tider', '1 ledig tid', '5 ledige tider']);
    expect([0, 1, 5].map((n) => freeTimes('en', n))).to.deep.equal(['no free times', '1 free time', '5 free times']);
  });
});
