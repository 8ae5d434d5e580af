// Data access of password-reset tokens (stored only as hashes, single use): plain rows out; the
// caller passes the pool or its transaction.
import type { Db } from '../../db/db-handle';
import { PasswordResetTokenModel } from '../../db/models/password-reset-token.model';
import { plainOrUndefined, type Row } from '../../db/plain';

export type PasswordResetTokenRow = Row<PasswordResetTokenModel>;

/** Earlier unused tokens of the user stop working. */
export async function retireUnusedResetTokens(db: Db, userId: string, at: Date): Promise<void> {
  await PasswordResetTokenModel.query(db).patch({ usedAt: at }).where({ userId }).whereNull('usedAt');
}

export async function insertResetToken(db: Db, row: Pick<PasswordResetTokenRow, 'userId' | 'tokenHash' | 'expiresAt'>): Promise<void> {
  await PasswordResetTokenModel.query(db).insert(row);
}

export async function lockResetToken(db: Db, tokenHash: string): Promise<PasswordResetTokenRow | undefined> {
  return plainOrUndefined(await PasswordResetTokenModel.query(db).findOne({ tokenHash }).forUpdate());
}

export async function markResetTokenUsed(db: Db, id: string, at: Date): Promise<void> {
  await PasswordResetTokenModel.query(db).patch({ usedAt: at }).where({ id });
}
