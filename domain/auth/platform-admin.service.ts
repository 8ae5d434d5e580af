// The platform ADMIN is bootstrapped from ADMIN_EMAIL / ADMIN_PASSWORD at start-up (idempotent).
import { UserModel } from '../../db/models/user.model';
import { hashPassword } from './passwords';

export async function ensurePlatformAdmin(email: string, password: string, rounds: number): Promise<{ created: boolean; id: string }> {
  const existing = await UserModel.query().findOne({ role: 'ADMIN', email });
  if (existing) return { created: false, id: existing.id };
  const admin = await UserModel.query().insert({
    tenantId: null,
    role: 'ADMIN',
    email,
    name: 'Platform admin',
    passwordHash: await hashPassword(password, rounds),
  });
  return { created: true, id: admin.id };
}
