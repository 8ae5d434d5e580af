// Data access of customer accounts, their external identities, refresh tokens and used ID-token
// nonces. Accounts are platform-wide (one person across salons), so these queries are scoped by the
// account, never by a tenant; everything salon-side stays scoped by tenantId.
import type { Db } from '../../db/db-handle';

export interface CustomerAccountRow {
  id: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  phone: string | null;
  tokenVersion: number;
  isActive: boolean;
  lastLoginAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface CustomerRefreshTokenRow {
  id: string;
  accountId: string;
  familyId: string;
  tokenHash: string;
  expiresAt: Date;
  rotatedAt: Date | null;
  revokedAt: Date | null;
}

export async function findAccount(db: Db, id: string, lock = false): Promise<CustomerAccountRow | undefined> {
  const q = db<CustomerAccountRow>('customerAccounts').where({ id }).first();
  if (lock) q.forUpdate();
  return q;
}

export async function findAccountIdByIdentity(db: Db, issuer: string, subject: string): Promise<string | undefined> {
  const row = await db('customerIdentities').where({ issuer, subject }).first('accountId');
  return row?.accountId;
}

export async function insertAccount(db: Db, fields: Pick<CustomerAccountRow, 'email' | 'emailVerified' | 'name'>): Promise<string> {
  const [row] = await db('customerAccounts').insert(fields).returning('id');
  return row.id;
}

/** Claims (issuer, subject) for the account; false when another sign-in claimed it first. */
export async function insertIdentityUnlessTaken(db: Db, accountId: string, identity: { issuer: string; subject: string; email: string | null }): Promise<boolean> {
  const rows = await db('customerIdentities')
    .insert({ accountId, ...identity, lastUsedAt: new Date() })
    .onConflict(['issuer', 'subject'])
    .ignore()
    .returning('id');
  return rows.length === 1;
}

export async function touchIdentity(db: Db, issuer: string, subject: string, email: string | null): Promise<void> {
  await db('customerIdentities').where({ issuer, subject }).update({ lastUsedAt: new Date(), updatedAt: new Date(), ...(email ? { email } : {}) });
}

export async function patchAccount(db: Db, id: string, patch: Partial<Omit<CustomerAccountRow, 'id' | 'createdAt'>>): Promise<CustomerAccountRow> {
  const [row] = await db<CustomerAccountRow>('customerAccounts').where({ id }).update({ ...patch, updatedAt: new Date() }).returning('*');
  return row as CustomerAccountRow;
}

/**
 * Remembers an ID-token nonce until the token expires. False when it was used before (a replay).
 * Nonces of tokens that expired over a day ago are forgotten on the way (they can no longer verify).
 */
export async function claimNonce(db: Db, issuer: string, nonce: string, expiresAt: Date): Promise<boolean> {
  await db('customerOidcNonces').where('expiresAt', '<', new Date(Date.now() - 86_400_000)).delete();
  const rows = await db('customerOidcNonces').insert({ issuer, nonce, expiresAt }).onConflict(['issuer', 'nonce']).ignore().returning('nonce');
  return rows.length === 1;
}

export async function insertCustomerRefreshToken(db: Db, row: Pick<CustomerRefreshTokenRow, 'accountId' | 'familyId' | 'tokenHash' | 'expiresAt'>): Promise<void> {
  await db('customerRefreshTokens').insert(row);
}

export async function findCustomerRefreshToken(db: Db, tokenHash: string, lock = false): Promise<CustomerRefreshTokenRow | undefined> {
  const q = db<CustomerRefreshTokenRow>('customerRefreshTokens').where({ tokenHash }).first();
  if (lock) q.forUpdate();
  return q;
}

export async function markCustomerTokenRotated(db: Db, id: string): Promise<void> {
  await db('customerRefreshTokens').where({ id }).update({ rotatedAt: new Date() });
}

export async function revokeCustomerRefreshTokens(db: Db, owner: { familyId: string } | { accountId: string }): Promise<void> {
  await db('customerRefreshTokens').where(owner).whereNull('revokedAt').update({ revokedAt: new Date() });
}

/** The salons where the account has a customer record, by name. */
export async function salonsOfAccount(db: Db, accountId: string): Promise<{ tenantId: string; slug: string; name: string; customerId: string }[]> {
  return db('customers as c')
    .join('tenants as t', 't.id', 'c.tenantId')
    .where('c.accountId', accountId)
    .orderBy('t.name')
    .select('t.id as tenantId', 't.slug', 't.name', 'c.id as customerId');
}

/** Links a salon's customer record to the account unless it belongs to another account already. */
export async function linkCustomerToAccount(db: Db, tenantId: string, customerId: string, accountId: string): Promise<void> {
  const linked = await db('customers').where({ tenantId, accountId }).first('id');
  if (linked) return;
  try {
    // a savepoint: two bookings linking at once lose nothing but the second link
    await db.transaction((sp) => sp('customers').where({ tenantId, id: customerId }).whereNull('accountId').update({ accountId, updatedAt: new Date() }));
  } catch (err) {
    if ((err as { code?: string }).code !== '23505') throw err;
  }
}

/** The salon's customer record of the account, if one is linked. */
export async function customerIdOfAccount(db: Db, tenantId: string, accountId: string): Promise<string | undefined> {
  const row = await db('customers').where({ tenantId, accountId }).first('id');
  return row?.id;
}
