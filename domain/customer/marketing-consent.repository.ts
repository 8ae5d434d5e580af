// Data access of marketing_consents (docs/rules/personal-data.md#consent): every consent or opt-out
// of a customer with its time and source, oldest first; plain rows out.
import { fn } from 'objection';
import type { Db } from '../../db/db-handle';
import { MarketingConsentModel } from '../../db/models/marketing-consent.model';
import { plain, type Row } from '../../db/plain';

export type MarketingConsentSource = 'BOOKING_PAGE' | 'SIGN_IN' | 'UNSUBSCRIBE_LINK' | 'SALON';
export type MarketingConsentRow = Omit<Row<MarketingConsentModel>, 'source'> & { source: MarketingConsentSource };

export interface NewMarketingConsent {
  tenantId: string;
  customerId: string;
  granted: boolean;
  source: MarketingConsentSource;
  actorUserId?: string | null;
  /** the caller's clock; unset: the database's */
  at?: Date;
}

export async function insertMarketingConsent(db: Db, consent: NewMarketingConsent): Promise<void> {
  const { at, ...fields } = consent;
  await MarketingConsentModel.query(db).insert({ ...fields, actorUserId: fields.actorUserId ?? null, recordedAt: at ?? (fn.now() as unknown as Date) });
}

/** The customer's consents and opt-outs, oldest first. */
export async function marketingConsentsOf(db: Db, tenantId: string, customerId: string): Promise<MarketingConsentRow[]> {
  const rows = await MarketingConsentModel.query(db).where({ tenantId, customerId }).orderBy('recordedAt').orderBy('createdAt');
  return rows.map((r) => plain(r) as MarketingConsentRow);
}

/** The latest consent or opt-out of each customer. */
export async function latestMarketingConsents(db: Db, customerIds: string[]): Promise<Map<string, MarketingConsentRow>> {
  if (!customerIds.length) return new Map();
  const rows = await MarketingConsentModel.query(db)
    .whereIn('customerId', customerIds)
    .distinctOn('customerId')
    .orderBy('customerId')
    .orderBy('recordedAt', 'desc')
    .orderBy('createdAt', 'desc');
  return new Map(rows.map((r) => [r.customerId, plain(r) as MarketingConsentRow]));
}

/** Forgets a customer's consents (their record was erased: nothing will be sent to it). */
export async function deleteMarketingConsentsOf(db: Db, customerId: string): Promise<number> {
  return MarketingConsentModel.query(db).delete().where({ customerId });
}
