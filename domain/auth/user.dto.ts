// The staff/owner/admin user as the API shows it (never the password hash or token version).
import type { UserModel } from '../../db/models/user.model';

export interface AuthUserDto {
  id: string;
  tenantId: string | null;
  role: UserModel['role'];
  email: string | null;
  phone: string | null;
  name: string | null;
  lastLoginAt: string | null;
  createdAt: string;
}

function iso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return new Date(value).toISOString();
}

export function toAuthUser(user: UserModel): AuthUserDto {
  return {
    id: user.id,
    tenantId: user.tenantId ?? null,
    role: user.role,
    email: user.email ?? null,
    phone: user.phone ?? null,
    name: user.name ?? null,
    lastLoginAt: iso(user.lastLoginAt),
    createdAt: iso(user.createdAt) as string,
  };
}
