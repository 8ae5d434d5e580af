// Marketing consent (docs/rules/personal-data.md#consent): service messages (confirmations, reminders,
// payment requests) go to every customer with an address; marketing messages (rebooking nudges,
// anything promotional) only to one whose latest answer at that salon is yes. Every answer is
// recorded with its time and source (the booking page's checkbox, the signed-in customer's own
// switch, the unsubscribe link, the salon), and the customer's record holds the current one
// (`acceptsRebookingNudges`, the switch the nudges read). Call inside the change's transaction.
import type { Db } from '../../db/db-handle';
import { patchCustomer } from './customer.repository';
import { insertMarketingConsent, type NewMarketingConsent } from './marketing-consent.repository';

export type { MarketingConsentSource } from './marketing-consent.repository';

/** Records one answer and makes it the customer's current one. */
export async function recordMarketingConsent(db: Db, consent: NewMarketingConsent): Promise<void> {
  await insertMarketingConsent(db, consent);
  await patchCustomer(db, consent.tenantId, consent.customerId, { acceptsRebookingNudges: consent.granted });
}
