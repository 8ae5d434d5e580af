// The reads of a personal-data export (docs/rules/personal-data.md#access-and-portability): every kind
// of record the platform holds about one person at one salon, read-only, plain rows out. The writes
// of an erasure go through each area's own repository (its *-personal-data.repository.ts).
import type { Db } from '../../db/db-handle';
import { plain } from '../../db/plain';
import { CustomerModel } from '../../db/models/customer.model';
import { TenantCustomerModel } from '../../db/models/tenant-customer.model';
import { TenantCustomerVisitModel } from '../../db/models/tenant-customer-visit.model';
import { BookingModel } from '../../db/models/booking.model';
import { BookingItemModel } from '../../db/models/booking-item.model';
import { BookingNotificationModel } from '../../db/models/booking-notification.model';
import { PaymentModel } from '../../db/models/payment.model';
import { PaymentRefundModel } from '../../db/models/payment-refund.model';
import { LoyaltyStampModel } from '../../db/models/loyalty-stamp.model';
import { LoyaltyVoucherModel } from '../../db/models/loyalty-voucher.model';
import { LoyaltyVoucherNotificationModel } from '../../db/models/loyalty-voucher-notification.model';
import { LoyaltyPointsBalanceModel } from '../../db/models/loyalty-points-balance.model';
import { LoyaltyPointsTransactionModel } from '../../db/models/loyalty-points-transaction.model';
import { WaitlistEntryModel } from '../../db/models/waitlist-entry.model';
import { WaitlistNotificationModel } from '../../db/models/waitlist-notification.model';
import { WaitlistOfferModel } from '../../db/models/waitlist-offer.model';
import { BookingSeriesModel } from '../../db/models/booking-series.model';
import { BookingSeriesNotificationModel } from '../../db/models/booking-series-notification.model';
import { RebookingNudgeModel } from '../../db/models/rebooking-nudge.model';
import { RebookingNudgeNotificationModel } from '../../db/models/rebooking-nudge-notification.model';
import { SmsReplyModel } from '../../db/models/sms-reply.model';
import { MarketingConsentModel } from '../../db/models/marketing-consent.model';
import { CustomerAccountModel } from '../../db/models/customer-account.model';
import { CustomerIdentityModel } from '../../db/models/customer-identity.model';
import { TenantModel } from '../../db/models/tenant.model';

/** Whose records one salon holds: its customer record, and (for an account's own export) the account's bookings there. */
export interface SalonSubject {
  tenantId: string;
  customerId: string | null;
  accountId: string | null;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Plain = Record<string, any>;
const rows = (models: object[]): Plain[] => models.map((m) => plain(m as CustomerModel) as Plain);

export async function salonOf(db: Db, tenantId: string): Promise<{ id: string; name: string; slug: string; settings: Plain } | undefined> {
  const t = await TenantModel.query(db).findById(tenantId).select('id', 'name', 'slug', 'settings');
  return t && { id: t.id, name: t.name, slug: t.slug, settings: t.settings as Plain };
}

export async function customerRecord(db: Db, tenantId: string, customerId: string): Promise<Plain | undefined> {
  const c = await CustomerModel.query(db).findOne({ tenantId, id: customerId });
  return c && (plain(c) as Plain);
}

export async function salonRecordOf(db: Db, tenantId: string, customerId: string): Promise<{ record: Plain | undefined; visits: Plain[] }> {
  const record = await TenantCustomerModel.query(db).findOne({ tenantId, customerId });
  const visits = record ? rows(await TenantCustomerVisitModel.query(db).where({ tenantCustomerId: record.id }).orderBy('visitedAt')) : [];
  return { record: record && (plain(record) as Plain), visits };
}

/** The subject's bookings at the salon, oldest first: the record's, and the account's own when it is the account's export. */
export async function bookingsOf(db: Db, s: SalonSubject): Promise<Plain[]> {
  if (!s.customerId && !s.accountId) return [];
  const q = BookingModel.query(db)
    .where('tenantId', s.tenantId)
    .where((w) => {
      if (s.customerId) w.orWhere('customerId', s.customerId);
      if (s.accountId) w.orWhere('customerAccountId', s.accountId);
    })
    .orderBy('startTime')
    .orderBy('id');
  return rows(await q);
}

export async function itemsOfBookings(db: Db, bookingIds: string[]): Promise<Plain[]> {
  if (!bookingIds.length) return [];
  return rows(
    await BookingItemModel.query(db)
      .leftJoin('services as s', 's.id', 'booking_items.serviceId')
      .leftJoin('resources as r', 'r.id', 'booking_items.resourceId')
      .whereIn('booking_items.bookingId', bookingIds)
      .orderBy('booking_items.sortOrder')
      .select('booking_items.*', 's.name as serviceName', 'r.name as staffName'),
  );
}

export async function paymentsOfBookings(db: Db, bookingIds: string[]): Promise<{ payments: Plain[]; refunds: Plain[] }> {
  if (!bookingIds.length) return { payments: [], refunds: [] };
  const payments = rows(await PaymentModel.query(db).whereIn('bookingId', bookingIds).orderBy('createdAt'));
  const refunds = payments.length
    ? rows(
        await PaymentRefundModel.query(db)
          .whereIn(
            'paymentId',
            payments.map((p) => p.id),
          )
          .orderBy('createdAt'),
      )
    : [];
  return { payments, refunds };
}

export async function loyaltyOf(db: Db, tenantId: string, tenantCustomerId: string | undefined) {
  if (!tenantCustomerId) return { stamps: [], vouchers: [], balances: [], transactions: [] };
  const stamps = rows(
    await LoyaltyStampModel.query(db)
      .join('loyalty_cards as c', 'c.id', 'loyalty_stamps.loyaltyCardId')
      .where({ 'loyalty_stamps.tenantId': tenantId, 'loyalty_stamps.tenantCustomerId': tenantCustomerId })
      .orderBy('loyalty_stamps.createdAt')
      .select('loyalty_stamps.*', 'c.name as cardName'),
  );
  const vouchers = rows(await LoyaltyVoucherModel.query(db).where({ tenantId, tenantCustomerId }).orderBy('issuedAt'));
  const balances = rows(
    await LoyaltyPointsBalanceModel.query(db)
      .join('loyalty_cards as c', 'c.id', 'loyalty_points_balances.loyaltyCardId')
      .where({ 'loyalty_points_balances.tenantId': tenantId, 'loyalty_points_balances.tenantCustomerId': tenantCustomerId })
      .select('loyalty_points_balances.*', 'c.name as cardName'),
  );
  const transactions = rows(
    await LoyaltyPointsTransactionModel.query(db)
      .join('loyalty_cards as c', 'c.id', 'loyalty_points_transactions.loyaltyCardId')
      .where({ 'loyalty_points_transactions.tenantId': tenantId, 'loyalty_points_transactions.tenantCustomerId': tenantCustomerId })
      .orderBy('loyalty_points_transactions.createdAt')
      .select('loyalty_points_transactions.*', 'c.name as cardName'),
  );
  return { stamps, vouchers, balances, transactions };
}

/**
 * The salon's waitlist entries of the person: the account's, and those made with the record's phone
 * or e-mail (an entry names no customer record: it keeps the contact it was made with).
 */
export async function waitlistEntriesOf(
  db: Db,
  tenantId: string,
  contact: { phone: string | null; email: string | null; accountId: string | null },
): Promise<Plain[]> {
  if (!contact.phone && !contact.email && !contact.accountId) return [];
  return rows(
    await WaitlistEntryModel.query(db)
      .where('tenantId', tenantId)
      .where((w) => {
        if (contact.phone) w.orWhere('contactPhone', contact.phone);
        if (contact.email) w.orWhere('contactEmail', contact.email);
        if (contact.accountId) w.orWhere('customerAccountId', contact.accountId);
      })
      .orderBy('createdAt'),
  );
}

export async function seriesOf(db: Db, tenantId: string, customerId: string | null): Promise<Plain[]> {
  if (!customerId) return [];
  return rows(await BookingSeriesModel.query(db).where({ tenantId, customerId }).orderBy('createdAt'));
}

export async function nudgesOf(db: Db, tenantId: string, customerId: string | null): Promise<Plain[]> {
  if (!customerId) return [];
  return rows(await RebookingNudgeModel.query(db).where({ tenantId, customerId }).orderBy('createdAt'));
}

export async function consentsOf(db: Db, tenantId: string, customerId: string | null): Promise<Plain[]> {
  if (!customerId) return [];
  return rows(await MarketingConsentModel.query(db).where({ tenantId, customerId }).orderBy('recordedAt').orderBy('createdAt'));
}

/** Every message that went out to the person (not the salon's own e-mails about them), with what it was about. */
export async function messagesTo(
  db: Db,
  about: { bookingIds: string[]; voucherIds: string[]; entryIds: string[]; seriesIds: string[]; nudgeIds: string[] },
): Promise<Plain[]> {
  const sent = <T extends { whereNotNull(column: string): T }>(q: T) => q.whereNotNull('sentAt');
  const out: Plain[] = [];
  if (about.bookingIds.length) {
    const found = await sent(BookingNotificationModel.query(db).whereIn('bookingId', about.bookingIds).whereNot('kind', 'UNCONFIRMED'));
    out.push(...rows(found).map((m) => ({ ...m, about: 'BOOKING', aboutId: m.bookingId })));
  }
  if (about.voucherIds.length) {
    const found = await sent(LoyaltyVoucherNotificationModel.query(db).whereIn('voucherId', about.voucherIds));
    out.push(...rows(found).map((m) => ({ ...m, about: 'VOUCHER', aboutId: m.voucherId })));
  }
  if (about.entryIds.length) {
    const offers = WaitlistOfferModel.query(db).select('id').whereIn('entryId', about.entryIds);
    const found = await sent(WaitlistNotificationModel.query(db).where((w) => w.whereIn('entryId', about.entryIds).orWhereIn('offerId', offers)));
    out.push(...rows(found).map((m) => ({ ...m, about: 'WAITLIST', aboutId: m.entryId ?? m.offerId })));
  }
  if (about.seriesIds.length) {
    const found = await sent(BookingSeriesNotificationModel.query(db).whereIn('seriesId', about.seriesIds).where('recipient', 'CUSTOMER'));
    out.push(...rows(found).map((m) => ({ ...m, about: 'SERIES', aboutId: m.seriesId })));
  }
  if (about.nudgeIds.length) {
    const found = await sent(RebookingNudgeNotificationModel.query(db).whereIn('nudgeId', about.nudgeIds));
    out.push(...rows(found).map((m) => ({ ...m, kind: 'REBOOKING_NUDGE', about: 'NUDGE', aboutId: m.nudgeId })));
  }
  return out.sort((a, b) => new Date(a.sentAt).getTime() - new Date(b.sentAt).getTime());
}

/** The person's SMS replies at the salon: to one of their bookings, or from their phone (to the salon, or matched to no salon). */
export async function repliesOf(db: Db, tenantId: string, bookingIds: string[], phone: string | null): Promise<Plain[]> {
  if (!bookingIds.length && !phone) return [];
  return rows(
    await SmsReplyModel.query(db)
      .where((w) => {
        if (bookingIds.length) w.orWhereIn('bookingId', bookingIds);
        if (phone) w.orWhere((p) => p.where((t) => t.where('tenantId', tenantId).orWhereNull('tenantId')).where('fromPhone', phone));
      })
      .orderBy('receivedAt'),
  );
}

export async function accountOf(db: Db, accountId: string): Promise<{ account: Plain | undefined; identities: Plain[] }> {
  const account = await CustomerAccountModel.query(db).findById(accountId);
  const identities = account ? rows(await CustomerIdentityModel.query(db).where({ accountId }).orderBy('createdAt')) : [];
  return { account: account && (plain(account) as Plain), identities };
}

/** Every salon where the account has a record linked to it or a booking of its own, by salon name. */
export async function salonsOfAccount(db: Db, accountId: string): Promise<SalonSubject[]> {
  const linked = await CustomerModel.query(db).where({ accountId }).select('tenantId', 'id');
  const booked = await BookingModel.query(db).where({ customerAccountId: accountId }).distinct('tenantId');
  const byTenant = new Map<string, SalonSubject>();
  for (const b of booked) byTenant.set(b.tenantId, { tenantId: b.tenantId, customerId: null, accountId });
  for (const c of linked) byTenant.set(c.tenantId, { tenantId: c.tenantId, customerId: c.id, accountId });
  const names = new Map(
    (
      await TenantModel.query(db)
        .whereIn('id', [...byTenant.keys()])
        .select('id', 'name')
    ).map((t) => [t.id, t.name]),
  );
  return [...byTenant.values()].sort((a, b) => (names.get(a.tenantId) ?? '').localeCompare(names.get(b.tenantId) ?? ''));
}
