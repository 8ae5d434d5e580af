// Role hierarchy (docs/rules/auth.md#roles), compared with >=.
export type Role = 'ADMIN' | 'OWNER' | 'STAFF' | 'CUSTOMER';

const RANK: Record<Role, number> = { ADMIN: 4, OWNER: 3, STAFF: 2, CUSTOMER: 1 };

export function hasRole(actual: Role, required: Role): boolean {
  return RANK[actual] >= RANK[required];
}
