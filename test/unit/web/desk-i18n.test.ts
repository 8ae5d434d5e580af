// Every error the front desk's operations can answer has a message in both languages: the codes are
// read from openapi.yaml (the preflight errors in its description, and every code named by an
// operation the desk calls), with the ones the contract names only by status and the error handler's.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { loadOpenApi } from '../../../api/openapi';
import { DESK_ERRORS, deskError, tr } from '../../../web/desk/i18n';
import { NETWORK_ERROR, UNKNOWN_ERROR } from '../../../web/shared/error-codes';

const CODE = /\b[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+\b/g;
/** Upper-snake words in the contract that are not error codes. */
const NOT_CODES = new Set([
  'IN_PROGRESS',
  'NO_SHOW',
  'WALK_IN',
  'IN_PERSON',
  'REFUND_FULL',
  'RETRY_PENDING',
  'APPROVAL_NEEDED',
  'CUSTOMER_CANCELLED',
  'FREE_SERVICE',
  'DISCOUNT_PERCENT',
  'DISCOUNT_AMOUNT',
  'VISIT_BASED',
  'POINTS_BASED',
  'FIRST_IN_LINE',
  'STAMP_XXXX_XXXX',
  'NO_ACTIVE_PROVIDER',
  'PROVIDER_UNAVAILABLE',
  'CARD_DECLINED',
  'STATUS_CHANGED',
  'SELF_PICKED',
  'PARTIALLY_REFUNDED',
  'JWT_SECRET',
  'ACCESS_TOKEN_TTL_SECONDS',
  'PUBLIC_BASE_URL',
]);
/** Named by status in the contract, not by code. */
const ALWAYS = ['UNAUTHORIZED', 'FORBIDDEN', 'RATE_LIMIT_EXCEEDED', 'VALIDATION_ERROR', 'CONCURRENT_UPDATE'];

/** The operations web/desk calls (api.GET/POST/PATCH of its files). */
function deskOperations(): { method: string; path: string }[] {
  const dir = path.resolve(__dirname, '../../../web/desk');
  const calls: { method: string; path: string }[] = [];
  for (const file of fs.readdirSync(dir).filter((f) => /\.tsx?$/.test(f))) {
    const source = fs.readFileSync(path.join(dir, file), 'utf8');
    for (const m of source.matchAll(/api\.(GET|POST|PATCH|PUT|DELETE)\('([^']+)'/g)) calls.push({ method: m[1].toLowerCase(), path: m[2] });
  }
  return calls;
}

function errorHandlerCodes(): string[] {
  const source = fs.readFileSync(path.resolve(__dirname, '../../../api/middleware/error-handler.ts'), 'utf8');
  return [...source.matchAll(/'([A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+)'/g)].map((m) => m[1]);
}

function deskErrorCodes(): string[] {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const doc = loadOpenApi() as any;
  const codes = new Set<string>([...String(doc.info.description).matchAll(CODE)].map((m) => m[0]));
  for (const { method, path: p } of deskOperations()) {
    const op = doc.paths[p]?.[method];
    expect(op, `${method.toUpperCase()} ${p} is in the contract`).to.not.equal(undefined);
    const text =
      JSON.stringify(op) +
      Object.values<{ $ref?: string }>(op.responses ?? {})
        .map((r) => (r.$ref ? JSON.stringify(doc.components.responses[r.$ref.split('/').pop()!]) : ''))
        .join(' ');
    for (const m of text.matchAll(CODE)) codes.add(m[0]);
  }
  return [...codes, ...ALWAYS, ...errorHandlerCodes()].filter((c) => !NOT_CODES.has(c) && !c.startsWith('{'));
}

describe('front desk texts', () => {
  it('when any operation the desk calls answers one of its error codes then the desk has a message for it in Norwegian and English', () => {
    expect(deskOperations().length).to.be.greaterThan(15);
    const missing = deskErrorCodes().filter((code) => !DESK_ERRORS[code]?.nb || !DESK_ERRORS[code]?.en);
    expect(missing).to.deep.equal([]);
  });

  it('when the code is unknown or no answer came then a general message is shown, and placeholders are filled', () => {
    expect(deskError('nb', 'SOMETHING_NEW')).to.equal(DESK_ERRORS[UNKNOWN_ERROR].nb);
    expect(deskError('en', NETWORK_ERROR)).to.contain('could not reach');
    expect(tr('nb', 'moved', { time: '14:00', staff: 'Ingrid' })).to.equal('Timen er flyttet til 14:00 hos Ingrid.');
    expect(tr('en', 'moveRefused', { reason: deskError('en', 'BOOKING_CONFLICT') })).to.equal(
      'The appointment was not moved: the time is taken (another booking, a room or a held time).',
    );
  });
});
