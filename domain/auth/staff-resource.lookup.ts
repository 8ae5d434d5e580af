// HOOK for the resources area: which resource (staff member) belongs to a user.
//
// GET /auth/me reports `resourceId` for staff (spec 4.1). Resources do not exist yet; the colleague
// who builds them (with a `resources.user_id` column in a later migration) replaces the body with
// something like:
//
//   const row = await db('resources').select('id').where({ tenantId, userId }).first();
//   return row?.id ?? null;
//
// Contract: return the id of the resource of `userId` inside `tenantId`, or null when there is none
// (always null for the platform ADMIN, who has no tenant). Never look outside `tenantId`.
import type { Knex } from 'knex';

export async function findResourceIdForUser(_db: Knex | Knex.Transaction, tenantId: string | null, _userId: string): Promise<string | null> {
  if (!tenantId) return null;
  return null;
}
