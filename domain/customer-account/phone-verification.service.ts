// A signed-in customer proves a phone number (docs/rules/customers.md#verifying-a-phone): a one-time
// code goes to the number by SMS (an account message, sent by its workflow through the SmsSender
// port), and the code typed back within its time, before too many wrong ones, marks the account's
// phone as proven. A proven phone links the salons' customer records with that number to the
// account and proves the account's guest bookings made with it (a claim).
import type { Db } from '../../db/db-handle';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import { advisoryTransactionLock } from '../../db/advisory-locks';
import { errors } from '../errors';
import { nowOf, type Clock } from '../time/clock';
import { toIso } from '../time/iso';
import { DEFAULT_PHONE_REGION, requirePhone } from '../phone/phone.rules';
import { linkProvenPhoneEverywhere } from '../customer/customer.repository';
import { requestAccountMessage } from '../auth/account-messages';
import { findAccount, patchAccount } from './customer-account.repository';
import { codesAskedSince, countFailedAttempt, insertPhoneVerification, lockLatestVerification, markPhoneVerified } from './phone-verification.repository';
import { codeExpiry, hourBefore, isCodeExpired, PHONE_CODE_MAX_FAILED_ATTEMPTS, PHONE_CODES_PER_HOUR } from './phone-verification.rules';
import { phoneCodeMatches } from './phone-code';
import { customerProfile, type CustomerMeDto } from './customer-auth.service';

export interface PhoneVerificationDeps {
  knex: Db;
  signaller: EntitySignaller;
  /** the phone-code key (docs/rules/security.md#keys) */
  phoneCodeKey: string;
  now?: Clock;
}

/** Serialises the codes of one number, whoever asks for them, so the hourly count holds. */
const PHONE_CODE_LOCK = 41041;

/** The number in E.164; an account belongs to no salon, so one without a country code is read as Norway's. */
function phoneOf(input: string): string {
  return requirePhone(input, DEFAULT_PHONE_REGION, 'phone');
}

/**
 * POST /customer/me/phone-verifications: a code for `phone`, by SMS. At most PHONE_CODES_PER_HOUR
 * codes per account and per number in any hour (429 RATE_LIMIT_EXCEEDED past it, nothing sent).
 */
export async function startPhoneVerification(
  deps: PhoneVerificationDeps,
  accountId: string,
  phoneInput: string,
): Promise<{ phone: string; expiresAt: string }> {
  const phone = phoneOf(phoneInput);
  const now = nowOf(deps);
  return deps.knex.transaction(async (trx) => {
    // the account's row, then the number's lock: both counts are decided alone
    if (!(await findAccount(trx, accountId, true))) throw errors.unauthorized('Customer account no longer exists');
    await advisoryTransactionLock(trx, { lockClass: PHONE_CODE_LOCK, key: phone });
    const since = hourBefore(now);
    if (
      (await codesAskedSince(trx, { customerAccountId: accountId }, since)) >= PHONE_CODES_PER_HOUR ||
      (await codesAskedSince(trx, { phone }, since)) >= PHONE_CODES_PER_HOUR
    ) {
      throw errors.rateLimited();
    }
    const verification = await insertPhoneVerification(trx, { customerAccountId: accountId, phone, createdAt: now, expiresAt: codeExpiry(now) });
    await requestAccountMessage(trx, deps.signaller, { kind: 'PHONE_CODE', phone, phoneVerificationId: verification.id, createdAt: now });
    return { phone, expiresAt: toIso(verification.expiresAt) };
  });
}

const codeInvalid = () => errors.unprocessable('PHONE_CODE_INVALID', 'The code is not right; check the SMS, or ask for a new code');

/**
 * POST /customer/me/phone-verifications/confirm: the code of the account's latest verification of
 * `phone`. Right, in time and before the PHONE_CODE_MAX_FAILED_ATTEMPTS-th wrong one: the account's
 * phone is `phone`, proven, and the salons' records with it are linked to the account. A wrong code
 * counts (committed even though the answer is 422 PHONE_CODE_INVALID).
 */
export async function confirmPhoneVerification(deps: PhoneVerificationDeps, accountId: string, phoneInput: string, code: string): Promise<CustomerMeDto> {
  const phone = phoneOf(phoneInput);
  const now = nowOf(deps);
  const outcome = await deps.knex.transaction(async (trx): Promise<'ok' | 'wrong'> => {
    const verification = await lockLatestVerification(trx, accountId, phone);
    if (!verification || verification.verifiedAt)
      throw errors.unprocessable('PHONE_CODE_NOT_REQUESTED', 'No code is waiting for this number; ask for one first');
    if (isCodeExpired(verification.expiresAt, now)) throw errors.unprocessable('PHONE_CODE_EXPIRED', 'The code has expired; ask for a new one');
    if (verification.failedAttempts >= PHONE_CODE_MAX_FAILED_ATTEMPTS) {
      throw errors.unprocessable('PHONE_CODE_ATTEMPTS_EXCEEDED', `The code was entered wrong ${PHONE_CODE_MAX_FAILED_ATTEMPTS} times; ask for a new one`);
    }
    if (!phoneCodeMatches(deps.phoneCodeKey, verification.id, code)) {
      await countFailedAttempt(trx, verification.id);
      return 'wrong';
    }
    await markPhoneVerified(trx, verification.id, now);
    await findAccount(trx, accountId, true);
    await patchAccount(trx, accountId, { phone, phoneVerifiedAt: now });
    await linkProvenPhoneEverywhere(trx, accountId, phone);
    return 'ok';
  });
  if (outcome === 'wrong') throw codeInvalid();
  return customerProfile(deps.knex, accountId);
}
