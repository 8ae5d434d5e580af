// The staff/owner/admin user as the API shows it (never the password hash or token version).
import type { UserRow } from './user.repository';
import { toIso, toIsoOrNull } from '../time/iso';

export interface AuthUserDto {
  id: string;
  tenantId: string | null;
  role: UserRow['role'];
  email: string | null;
  phone: string | null;
  name: string | null;
  lastLoginAt: string | null;
  createdAt: string;
}

export function toAuthUser(user: UserRow): AuthUserDto {
  return {
    id: user.id,
    tenantId: user.tenantId ?? null,
    role: user.role,
    email: user.email ?? null,
    phone: user.phone ?? null,
    name: user.name ?? null,
    lastLoginAt: toIsoOrNull(user.lastLoginAt),
    createdAt: toIso(user.createdAt),
  };
}
