// Data access of refresh tokens (stored only as hashes, grouped in families): plain rows out; the
// caller passes the pool or its transaction.
import type { Db } from '../../db/db-handle';
import { RefreshTokenModel } from '../../db/models/refresh-token.model';
import { plainOrUndefined, type Row } from '../../db/plain';

export type RefreshTokenRow = Row<RefreshTokenModel>;

export async function insertRefreshToken(db: Db, row: Pick<RefreshTokenRow, 'userId' | 'familyId' | 'tokenHash' | 'expiresAt'>): Promise<void> {
  await RefreshTokenModel.query(db).insert(row);
}

export async function findRefreshToken(db: Db, tokenHash: string, lock = false): Promise<RefreshTokenRow | undefined> {
  const q = RefreshTokenModel.query(db).findOne({ tokenHash });
  if (lock) q.forUpdate();
  return plainOrUndefined(await q);
}

export async function markRotated(db: Db, id: string, at: Date): Promise<void> {
  await RefreshTokenModel.query(db).patch({ rotatedAt: at }).where({ id });
}

/** Revokes the not yet revoked tokens of a family, or of every family of a user. */
export async function revokeRefreshTokens(db: Db, owner: { familyId: string } | { userId: string }, at: Date): Promise<void> {
  await RefreshTokenModel.query(db).patch({ revokedAt: at }).where(owner).whereNull('revokedAt');
}
