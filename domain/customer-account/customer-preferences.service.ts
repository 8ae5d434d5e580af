// A signed-in customer's message preferences (docs/rules/series.md#rebooking-nudges): whether each
// salon that knows them may send "time for your next visit" messages. The unsubscribe link of such a
// message and the salon (PATCH /customers/:id) change the same switch; every answer is recorded with
// its source (docs/rules/personal-data.md#consent).
import type { Db } from '../../db/db-handle';
import { errors } from '../errors';
import { rebookingNudgesOfAccount, salonsOfAccount } from '../customer/customer.repository';
import { recordMarketingConsent } from '../customer/marketing-consent.service';

export interface CustomerPreferencesDto {
  salons: { tenantSlug: string; tenantName: string; rebookingNudges: boolean }[];
}

/** GET /customer/me/preferences */
export async function customerPreferences(db: Db, accountId: string): Promise<CustomerPreferencesDto> {
  return { salons: (await rebookingNudgesOfAccount(db, accountId)).map((s) => ({ tenantSlug: s.slug, tenantName: s.name, rebookingNudges: s.accepts })) };
}

/** PUT /customer/me/preferences: every salon's switch, or one salon's (404 TENANT_NOT_FOUND for a salon that does not know the customer). */
export async function updateCustomerPreferences(
  db: Db,
  accountId: string,
  input: { rebookingNudges: boolean; tenantSlug?: string },
): Promise<CustomerPreferencesDto> {
  let tenantId: string | undefined;
  if (input.tenantSlug !== undefined) {
    tenantId = (await rebookingNudgesOfAccount(db, accountId)).find((s) => s.slug === input.tenantSlug)?.tenantId;
    if (!tenantId) throw errors.notFound('tenant');
  }
  // each salon's record gets the answer, recorded as the signed-in customer's own (docs/rules/personal-data.md#consent)
  await db.transaction(async (trx) => {
    for (const salon of await salonsOfAccount(trx, accountId)) {
      if (tenantId && salon.tenantId !== tenantId) continue;
      await recordMarketingConsent(trx, { tenantId: salon.tenantId, customerId: salon.customerId, granted: input.rebookingNudges, source: 'SIGN_IN' });
    }
  });
  return customerPreferences(db, accountId);
}
