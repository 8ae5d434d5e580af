// The platform ADMIN is bootstrapped from ADMIN_EMAIL / ADMIN_PASSWORD at start-up (idempotent).
import type { Db } from '../../db/db-handle';
import { hashPassword } from './passwords';
import { findPlatformAdmin, insertUser } from './user.repository';

export async function ensurePlatformAdmin(db: Db, email: string, password: string, rounds: number): Promise<{ created: boolean; id: string }> {
  const existing = await findPlatformAdmin(db, email);
  if (existing) return { created: false, id: existing.id };
  const id = await insertUser(db, {
    tenantId: null,
    role: 'ADMIN',
    email,
    phone: null,
    name: 'Platform admin',
    passwordHash: await hashPassword(password, rounds),
  });
  return { created: true, id };
}
