// Data access of login users (staff, owners, platform admins): plain rows out; the caller passes the
// pool or its transaction.
import type { Db } from '../../db/db-handle';
import { UserModel } from '../../db/models/user.model';
import { plain, plainOrUndefined, type Row } from '../../db/plain';

export type UserRow = Row<UserModel>;
export type NewUserRow = Pick<UserRow, 'tenantId' | 'role' | 'email' | 'phone' | 'name' | 'passwordHash'>;
export type UserChanges = Partial<Pick<UserRow, 'email' | 'phone' | 'passwordHash' | 'tokenVersion' | 'lastLoginAt'>>;

/** The new user's id. */
export async function insertUser(db: Db, row: NewUserRow): Promise<string> {
  return (await UserModel.query(db).insert(row)).id;
}

export async function findUserById(db: Db, id: string, lock = false): Promise<UserRow | undefined> {
  const q = UserModel.query(db).findById(id);
  if (lock) q.forUpdate();
  return plainOrUndefined(await q);
}

export async function findPlatformAdmin(db: Db, email: string): Promise<UserRow | undefined> {
  return plainOrUndefined(await UserModel.query(db).findOne({ role: 'ADMIN', email }));
}

/**
 * Active users with this e-mail or phone. `tenantId`: only that salon's users, plus platform
 * admins (tenantId null) when `withPlatformAdmins`.
 */
export async function activeUsersBy(db: Db, login: { email: string } | { phone: string }, tenantId?: string, withPlatformAdmins = false): Promise<UserRow[]> {
  const query = UserModel.query(db).where({ isActive: true }).where(login);
  if (tenantId) query.where((q) => (withPlatformAdmins ? q.where('tenantId', tenantId).orWhereNull('tenantId') : q.where('tenantId', tenantId)));
  return (await query).map(plain);
}

/** Does another user of the same salon (or, with tenantId null, another platform user) use this e-mail or phone? */
export async function contactTaken(db: Db, tenantId: string | null, contact: { email: string } | { phone: string }, exceptUserId: string): Promise<boolean> {
  const q = UserModel.query(db).select('id').where(contact).whereNot('id', exceptUserId);
  if (tenantId) q.where('tenantId', tenantId);
  else q.whereNull('tenantId');
  return !!(await q.first());
}

export async function patchUser(db: Db, id: string, changes: UserChanges): Promise<UserRow> {
  return plain(await UserModel.query(db).patchAndFetchById(id, changes));
}

/** The salon's staff logins (name and e-mail) by name: what `npm start` prints for the demo salon. */
export async function staffLoginsOfSalon(db: Db, slug: string): Promise<{ name: string; email: string }[]> {
  const rows = await UserModel.query(db)
    .join('tenants as t', 't.id', 'users.tenantId')
    .where({ 't.slug': slug, 'users.role': 'STAFF' })
    .orderBy('users.name')
    .select('users.name', 'users.email');
  return rows.map((u) => ({ name: u.name!, email: u.email! }));
}

/** The salon's active owners with an e-mail address: who a salon message goes to (docs/rules/series.md#telling-people). */
export async function ownerContactsOfSalon(db: Db, tenantId: string): Promise<{ id: string; name: string | null; email: string }[]> {
  const rows = await UserModel.query(db)
    .where({ tenantId, role: 'OWNER', isActive: true })
    .whereNotNull('email')
    .orderBy('createdAt')
    .select('id', 'name', 'email');
  return rows.map((u) => ({ id: u.id, name: u.name ?? null, email: u.email! }));
}

/** Where the salon is told about its bookings (the flag of a booking nobody promised to come to): its first active owner's e-mail, if any. */
export async function salonOwnerEmail(db: Db, tenantId: string): Promise<string | null> {
  return (await ownerContactsOfSalon(db, tenantId))[0]?.email ?? null;
}
