// Data access of customer accounts, their external identities, refresh tokens and used ID-token
// nonces. Accounts are platform-wide (one person across salons), so these queries are scoped by the
// account, never by a tenant; everything salon-side stays scoped by tenantId (a salon's customer
// record and its link to an account are the customer module's: customer.repository.ts).
import type { Db } from '../../db/db-handle';
import { CustomerAccountModel } from '../../db/models/customer-account.model';
import { CustomerIdentityModel } from '../../db/models/customer-identity.model';
import { CustomerOidcNonceModel } from '../../db/models/customer-oidc-nonce.model';
import { CustomerRefreshTokenModel } from '../../db/models/customer-refresh-token.model';
import { plain, plainOrUndefined, returnedRows, type Row } from '../../db/plain';

export type CustomerAccountRow = Row<CustomerAccountModel>;
export type CustomerRefreshTokenRow = Omit<Row<CustomerRefreshTokenModel>, 'createdAt'>;

export async function findAccount(db: Db, id: string, lock = false): Promise<CustomerAccountRow | undefined> {
  const q = CustomerAccountModel.query(db).findById(id);
  if (lock) q.forUpdate();
  return plainOrUndefined(await q);
}

export async function findAccountIdByIdentity(db: Db, issuer: string, subject: string): Promise<string | undefined> {
  return (await CustomerIdentityModel.query(db).select('accountId').findOne({ issuer, subject }))?.accountId;
}

export async function insertAccount(db: Db, fields: Pick<CustomerAccountRow, 'email' | 'emailVerified' | 'name'>): Promise<string> {
  return (await CustomerAccountModel.query(db).insert(fields)).id;
}

/** A sign-in that lost the race for its identity drops the account it created. */
export async function deleteAccount(db: Db, id: string): Promise<void> {
  await CustomerAccountModel.query(db).deleteById(id);
}

/** Claims (issuer, subject) for the account at `now`; false when another sign-in claimed it first. */
export async function insertIdentityUnlessTaken(
  db: Db,
  accountId: string,
  identity: { issuer: string; subject: string; email: string | null },
  now: Date,
): Promise<boolean> {
  const rows = await returnedRows(
    CustomerIdentityModel.query(db)
      .insert({ accountId, ...identity, lastUsedAt: now })
      .onConflict(['issuer', 'subject'])
      .ignore()
      .returning('id'),
  );
  return rows.length === 1;
}

export async function touchIdentity(db: Db, issuer: string, subject: string, email: string | null, now: Date): Promise<void> {
  await CustomerIdentityModel.query(db)
    .patch({ lastUsedAt: now, ...(email ? { email } : {}) })
    .where({ issuer, subject });
}

/** The account after the change (one statement: UPDATE ... RETURNING). */
export async function patchAccount(db: Db, id: string, patch: Partial<Omit<CustomerAccountRow, 'id' | 'createdAt'>>): Promise<CustomerAccountRow> {
  const updated = await CustomerAccountModel.query(db).patch(patch).findById(id).returning('*');
  if (!updated) throw new Error(`customer account ${id} vanished while it was locked`);
  return plain(updated);
}

/**
 * Remembers an ID-token nonce until the token expires. False when it was used before (a replay).
 * Nonces of tokens that expired over a day before `now` are forgotten on the way (they can no longer verify).
 */
export async function claimNonce(db: Db, issuer: string, nonce: string, expiresAt: Date, now: Date): Promise<boolean> {
  await CustomerOidcNonceModel.query(db)
    .where('expiresAt', '<', new Date(now.getTime() - 86_400_000))
    .delete();
  const rows = await returnedRows(
    CustomerOidcNonceModel.query(db).insert({ issuer, nonce, expiresAt }).onConflict(['issuer', 'nonce']).ignore().returning('nonce'),
  );
  return rows.length === 1;
}

export async function insertCustomerRefreshToken(
  db: Db,
  row: Pick<CustomerRefreshTokenRow, 'accountId' | 'familyId' | 'tokenHash' | 'expiresAt'>,
): Promise<void> {
  await CustomerRefreshTokenModel.query(db).insert(row);
}

export async function findCustomerRefreshToken(db: Db, tokenHash: string, lock = false): Promise<CustomerRefreshTokenRow | undefined> {
  const q = CustomerRefreshTokenModel.query(db).findOne({ tokenHash });
  if (lock) q.forUpdate();
  return plainOrUndefined(await q);
}

export async function markCustomerTokenRotated(db: Db, id: string, at: Date): Promise<void> {
  await CustomerRefreshTokenModel.query(db).patch({ rotatedAt: at }).where({ id });
}

export async function revokeCustomerRefreshTokens(db: Db, owner: { familyId: string } | { accountId: string }, at: Date): Promise<void> {
  await CustomerRefreshTokenModel.query(db).patch({ revokedAt: at }).where(owner).whereNull('revokedAt');
}
