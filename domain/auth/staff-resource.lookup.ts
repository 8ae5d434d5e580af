// Which resource (staff member) belongs to a user: GET /auth/me reports it as `resourceId` (spec 4.1).
// Filled in by the resources area (resources.user_id, migration 011; unique per user).
//
// Contract: return the id of the resource of `userId` inside `tenantId`, or null when there is none
// (always null for the platform ADMIN, who has no tenant). Never look outside `tenantId`.
import type { Knex } from 'knex';

export async function findResourceIdForUser(db: Knex | Knex.Transaction, tenantId: string | null, userId: string): Promise<string | null> {
  if (!tenantId) return null;
  const row: { id: string } | undefined = await db('resources').select('id').where({ tenantId, userId }).first();
  return row?.id ?? null;
}
