// Access and portability (docs/rules/personal-data.md#access-and-portability): one customer's data at
// one salon, exported by the salon's owner, or a signed-in customer's own across every salon; a JSON
// document (personal-data.dto.ts) or the same as readable text (personal-data-summary.ts). Every
// export is recorded: who asked, when, for whom, in which form.
import type { Db } from '../../db/db-handle';
import { errors } from '../errors';
import { toIso } from '../time/iso';
import * as read from './personal-data-export.repository';
import { insertExportRecord, erasureOfCustomer, pageOfExports, type ExportFormat } from './personal-data.repository';
import { salonDocument, accountDocument, exportRecordDto, type PersonalDataExportDto, type SalonPersonalDataDto } from './personal-data.dto';
import type { PageQuery, PageResult } from '../../db/paginate';
import type { Language } from '../language/language.rules';
import { personalDataSummary } from './personal-data-summary';

export type { PersonalDataExportDto } from './personal-data.dto';

/** Everything one salon holds about the subject, and the salon's time zone and currency (the summary writes in them). */
async function salonData(db: Db, subject: read.SalonSubject, settings: SalonSettings): Promise<SalonPersonalDataDto> {
  const salon = (await read.salonOf(db, subject.tenantId))!;
  settings.set(salon.id, { timezone: salon.settings?.timezone ?? 'Europe/Oslo', currency: salon.settings?.currency ?? 'NOK' });
  const customer = subject.customerId ? await read.customerRecord(db, subject.tenantId, subject.customerId) : undefined;
  const { record, visits } = subject.customerId ? await read.salonRecordOf(db, subject.tenantId, subject.customerId) : { record: undefined, visits: [] };
  const bookings = await read.bookingsOf(db, subject);
  const bookingIds = bookings.map((b) => b.id as string);
  const items = await read.itemsOfBookings(db, bookingIds);
  const { payments, refunds } = await read.paymentsOfBookings(db, bookingIds);
  const loyalty = await read.loyaltyOf(db, subject.tenantId, record?.id);
  const entries = await read.waitlistEntriesOf(db, subject.tenantId, {
    phone: customer?.phone ?? null,
    email: customer?.email ?? null,
    accountId: subject.accountId ?? customer?.accountId ?? null,
  });
  const series = await read.seriesOf(db, subject.tenantId, subject.customerId);
  const nudges = await read.nudgesOf(db, subject.tenantId, subject.customerId);
  const messages = await read.messagesTo(db, {
    bookingIds,
    voucherIds: loyalty.vouchers.map((v) => v.id),
    entryIds: entries.map((e) => e.id),
    seriesIds: series.map((s) => s.id),
    nudgeIds: nudges.map((n) => n.id),
  });
  const replies = await read.repliesOf(db, subject.tenantId, bookingIds, customer?.phone ?? null);
  const consents = await read.consentsOf(db, subject.tenantId, subject.customerId);
  const erasure = subject.customerId ? await erasureOfCustomer(db, subject.tenantId, subject.customerId) : undefined;
  return salonDocument({
    salon,
    customer,
    record,
    visits,
    bookings,
    items,
    payments,
    refunds,
    loyalty,
    entries,
    series,
    nudges,
    messages,
    replies,
    consents,
    erasure,
  });
}

type SalonSettings = Map<string, { timezone: string; currency: string }>;

/** The export in the form asked for: the document, or its summary in `lang`. */
export type ExportAnswer<F extends ExportFormat> = F extends 'JSON' ? PersonalDataExportDto : string;

function answer<F extends ExportFormat>(doc: PersonalDataExportDto, format: F, lang: Language, settings: SalonSettings): ExportAnswer<F> {
  return (format === 'JSON' ? doc : personalDataSummary(doc, lang, settings)) as ExportAnswer<F>;
}

/** GET /customers/{id}/personal-data (and .../summary): one customer at the salon; 404 for another salon's. */
export async function exportCustomer<F extends ExportFormat>(
  db: Db,
  tenantId: string,
  customerId: string,
  requester: { userId: string; role: string },
  options: { format: F; lang: Language; now: Date },
): Promise<ExportAnswer<F>> {
  if (!(await read.customerRecord(db, tenantId, customerId))) throw errors.notFound('customer');
  const settings: SalonSettings = new Map();
  const salon = await salonData(db, { tenantId, customerId, accountId: null }, settings);
  await insertExportRecord(db, {
    tenantId,
    customerId,
    customerAccountId: null,
    requestedByUserId: requester.userId,
    requestedByRole: requester.role,
    format: options.format,
  });
  return answer({ exportedAt: toIso(options.now), requestedBy: 'SALON', account: null, salons: [salon] }, options.format, options.lang, settings);
}

/** GET /customer/me/personal-data (and .../summary): the account and every salon that holds the customer. */
export async function exportAccount<F extends ExportFormat>(
  db: Db,
  accountId: string,
  options: { format: F; lang: Language; now: Date },
): Promise<ExportAnswer<F>> {
  const { account, identities } = await read.accountOf(db, accountId);
  if (!account) throw errors.unauthorized('Customer sign-in required');
  const settings: SalonSettings = new Map();
  const salons = [];
  for (const subject of await read.salonsOfAccount(db, accountId)) salons.push(await salonData(db, subject, settings));
  await insertExportRecord(db, {
    tenantId: null,
    customerId: null,
    customerAccountId: accountId,
    requestedByUserId: null,
    requestedByRole: 'CUSTOMER',
    format: options.format,
  });
  const doc: PersonalDataExportDto = { exportedAt: toIso(options.now), requestedBy: 'CUSTOMER', account: accountDocument(account, identities), salons };
  return answer(doc, options.format, options.lang, settings);
}

/** GET /personal-data/exports: the salon's record of its exports, newest first. */
export async function listExports(db: Db, tenantId: string, page: PageQuery): Promise<PageResult<ReturnType<typeof exportRecordDto>>> {
  const found = await pageOfExports(db, tenantId, page);
  return { ...found, rows: found.rows.map(exportRecordDto) };
}
