// Data access of password-reset tokens (stored only as hashes, single use): plain rows out; the
// caller passes the pool or its transaction.
import { fn } from 'objection';
import type { Db } from '../../db/db-handle';
import { PasswordResetTokenModel } from '../../db/models/password-reset-token.model';
import { plain, plainOrUndefined, type Row } from '../../db/plain';

export type PasswordResetTokenRow = Row<PasswordResetTokenModel>;

/** The user's unused tokens of requests made before `before` stop working. */
export async function retireUnusedResetTokens(db: Db, userId: string, at: Date, before: Date): Promise<void> {
  await PasswordResetTokenModel.query(db).patch({ usedAt: at }).where({ userId }).whereNull('usedAt').where('createdAt', '<', before);
}

/** Whether a request made after `after` already gave the user a token that still works. */
export async function newerUnusedResetTokenExists(db: Db, userId: string, after: Date): Promise<boolean> {
  return !!(await PasswordResetTokenModel.query(db).select('id').where({ userId }).whereNull('usedAt').where('createdAt', '>', after).first());
}

export async function findResetTokenOfMessage(db: Db, messageId: string, userId: string): Promise<PasswordResetTokenRow | undefined> {
  return plainOrUndefined(await PasswordResetTokenModel.query(db).findOne({ messageId, userId }));
}

export async function insertResetToken(
  db: Db,
  row: Pick<PasswordResetTokenRow, 'id' | 'userId' | 'messageId' | 'tokenHash' | 'expiresAt' | 'createdAt'>,
): Promise<PasswordResetTokenRow> {
  return plain(await PasswordResetTokenModel.query(db).insert(row).returning('*'));
}

export async function markResetTokenMailed(db: Db, id: string): Promise<void> {
  await PasswordResetTokenModel.query(db).patch({ mailedAt: fn.now() }).where({ id }).whereNull('mailedAt');
}

export async function lockResetToken(db: Db, tokenHash: string): Promise<PasswordResetTokenRow | undefined> {
  return plainOrUndefined(await PasswordResetTokenModel.query(db).findOne({ tokenHash }).forUpdate());
}

export async function markResetTokenUsed(db: Db, id: string, at: Date): Promise<void> {
  await PasswordResetTokenModel.query(db).patch({ usedAt: at }).where({ id });
}
