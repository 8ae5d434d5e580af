// Data access of phone verifications (docs/rules/customers.md#verifying-a-phone): scoped by the
// account (and counted by the number); plain rows out, the caller passes the pool or its transaction.
import type { Db } from '../../db/db-handle';
import { PhoneVerificationModel } from '../../db/models/phone-verification.model';
import { plain, plainOrUndefined, type Row } from '../../db/plain';

export type PhoneVerificationRow = Row<PhoneVerificationModel>;

export async function insertPhoneVerification(
  db: Db,
  row: Pick<PhoneVerificationRow, 'customerAccountId' | 'phone' | 'createdAt' | 'expiresAt'>,
): Promise<PhoneVerificationRow> {
  return plain(await PhoneVerificationModel.query(db).insert(row).returning('*'));
}

export async function findPhoneVerification(db: Db, id: string): Promise<PhoneVerificationRow | undefined> {
  return plainOrUndefined(await PhoneVerificationModel.query(db).findById(id));
}

/** Codes asked for since `since`, by this account or for this number. */
export async function codesAskedSince(db: Db, by: { customerAccountId: string } | { phone: string }, since: Date): Promise<number> {
  const [{ count }] = (await PhoneVerificationModel.query(db).where(by).where('createdAt', '>', since).count({ count: '*' })) as unknown as [{ count: string }];
  return Number(count);
}

/** The account's latest code for this number, locked: only it can be confirmed. */
export async function lockLatestVerification(db: Db, customerAccountId: string, phone: string): Promise<PhoneVerificationRow | undefined> {
  return plainOrUndefined(
    await PhoneVerificationModel.query(db).where({ customerAccountId, phone }).orderBy('createdAt', 'desc').orderBy('id').first().forUpdate(),
  );
}

export async function countFailedAttempt(db: Db, id: string): Promise<void> {
  await PhoneVerificationModel.query(db).increment('failedAttempts', 1).where({ id });
}

export async function markPhoneVerified(db: Db, id: string, at: Date): Promise<void> {
  await PhoneVerificationModel.query(db).patch({ verifiedAt: at }).where({ id });
}
