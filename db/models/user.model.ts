import { BaseModel } from './base.model';

export type StaffRole = 'ADMIN' | 'OWNER' | 'STAFF';

export class UserModel extends BaseModel {
  static override tableName = 'users';

  tenantId!: string | null;
  role!: StaffRole;
  email!: string | null;
  phone!: string | null;
  name!: string | null;
  passwordHash!: string;
  tokenVersion!: number;
  isActive!: boolean;
  lastLoginAt!: Date | null;
}
