// Customers (docs/rules/customers.md#customers): per tenant, unique on the phone (E.164) and on the lower-cased e-mail
// (409 CUSTOMER_PHONE_EXISTS / CUSTOMER_EMAIL_EXISTS; a race that slips past the pre-check is mapped
// from the unique indexes in api/middleware/constraint-errors.ts). Creating a customer also creates its
// TenantCustomer row in the same transaction.
import type { Db } from '../../db/db-handle';
import type { PageQuery, PageResult } from '../../db/paginate';
import { errors } from '../errors';
import { normaliseEmail } from './customer.rules';
import { optionalPhone, requirePhone, type PhoneRegion } from '../phone/phone.rules';
import { salonPhoneRegion } from '../tenant/tenant-context';
import { toCustomerDto, type CustomerDto } from './customer.dto';
import * as repo from './customer.repository';
import { ensureTenantCustomer } from './tenant-customer.repository';
import { insertMarketingConsent } from './marketing-consent.repository';

export interface CustomerInput {
  name: string;
  phone?: string | null;
  email?: string | null;
  notes?: string | null;
  /** the customer agreed to rebooking nudges (docs/rules/series.md#rebooking-nudges) */
  acceptsRebookingNudges?: boolean;
}

export type CustomerPatch = Partial<CustomerInput>;

export type CustomerListQuery = PageQuery & repo.CustomerFilter;

/** 409 CUSTOMER_ERASED: the record's identity was erased (docs/rules/personal-data.md#erasure); it takes no new data or bookings. */
export const customerErased = () => errors.conflict('CUSTOMER_ERASED', 'This customer record was erased; it takes no new data or bookings');

export const phoneExists = () => errors.conflict('CUSTOMER_PHONE_EXISTS', 'A customer with this phone already exists in this salon');
export const emailExists = () => errors.conflict('CUSTOMER_EMAIL_EXISTS', 'A customer with this e-mail already exists in this salon');

export async function listCustomers(db: Db, tenantId: string, query: CustomerListQuery): Promise<PageResult<CustomerDto>> {
  const page = await repo.pageOfCustomers(db, tenantId, query, query);
  return { ...page, rows: page.rows.map(toCustomerDto) };
}

async function existingCustomer(db: Db, tenantId: string, id: string, lock = false): Promise<repo.CustomerRow> {
  const customer = await repo.findCustomer(db, tenantId, id, lock);
  if (!customer) throw errors.notFound('customer');
  return customer;
}

export async function getCustomer(db: Db, tenantId: string, id: string): Promise<CustomerDto> {
  return toCustomerDto(await existingCustomer(db, tenantId, id));
}

async function checkContactFree(db: Db, tenantId: string, phone: string | null, email: string | null, exceptId?: string): Promise<void> {
  if (phone && (await repo.findCustomerBy(db, tenantId, { phone }, exceptId))) throw phoneExists();
  if (email && (await repo.findCustomerBy(db, tenantId, { email }, exceptId))) throw emailExists();
}

/** POST /customers; `actorUserId` is who recorded it (a consent given to the salon is recorded with them). */
export async function createCustomer(db: Db, tenantId: string, input: CustomerInput, actorUserId: string | null = null): Promise<CustomerDto> {
  const phone = optionalPhone(input.phone, await salonPhoneRegion(db, tenantId), 'phone');
  const email = normaliseEmail(input.email);
  return db.transaction(async (trx) => {
    await checkContactFree(trx, tenantId, phone, email);
    const id = await repo.insertCustomer(trx, tenantId, {
      name: input.name.trim(),
      phone,
      email,
      notes: input.notes ?? null,
      acceptsRebookingNudges: input.acceptsRebookingNudges ?? false,
    });
    await ensureTenantCustomer(trx, tenantId, id);
    // the salon's own record of a consent (docs/rules/personal-data.md#consent)
    if (input.acceptsRebookingNudges) await insertMarketingConsent(trx, { tenantId, customerId: id, granted: true, source: 'SALON', actorUserId });
    return toCustomerDto(await existingCustomer(trx, tenantId, id));
  });
}

export async function updateCustomer(db: Db, tenantId: string, id: string, patch: CustomerPatch, actorUserId: string | null = null): Promise<CustomerDto> {
  return db.transaction(async (trx) => {
    const current = await existingCustomer(trx, tenantId, id, true);
    if (current.erased) throw customerErased();
    const changes: Partial<repo.CustomerFields> = {};
    if (patch.name !== undefined) changes.name = patch.name!.trim();
    if (patch.phone !== undefined) changes.phone = optionalPhone(patch.phone, await salonPhoneRegion(trx, tenantId), 'phone');
    if (patch.email !== undefined) changes.email = normaliseEmail(patch.email);
    if (patch.notes !== undefined) changes.notes = patch.notes;
    if (patch.acceptsRebookingNudges !== undefined) changes.acceptsRebookingNudges = patch.acceptsRebookingNudges;
    await checkContactFree(trx, tenantId, changes.phone ?? null, changes.email ?? null, id);
    if (Object.keys(changes).length) await repo.patchCustomer(trx, tenantId, id, changes);
    if (changes.acceptsRebookingNudges !== undefined && changes.acceptsRebookingNudges !== current.acceptsRebookingNudges) {
      await insertMarketingConsent(trx, { tenantId, customerId: id, granted: changes.acceptsRebookingNudges, source: 'SALON', actorUserId });
    }
    return toCustomerDto(await existingCustomer(trx, tenantId, id));
  });
}

export interface FoundCustomer {
  id: string;
  /** true when this call created the customer */
  created: boolean;
}

/**
 * For a booking (a first booking creates the customer, matched by phone).
 * Matches on the phone in E.164 (read in `region` when typed without a country code); an existing customer is returned unchanged (name and e-mail are
 * not merged). The customer gets its TenantCustomer row too. Concurrency-safe: the insert is
 * ON CONFLICT DO NOTHING against the unique indexes, so two bookings racing for the same new phone
 * both end up with the one row, and the caller's transaction is never aborted by a unique violation.
 * If the e-mail already belongs to a different customer, the new customer is stored without it.
 * One statement, new customer or known (docs/rules/customers.md#customers).
 */
export async function findOrCreateCustomerByPhone(
  db: Db,
  tenantId: string,
  contact: { name: string; phone: string; email?: string | null },
  region: PhoneRegion,
): Promise<FoundCustomer> {
  const phone = requirePhone(contact.phone, region, 'phone');
  let email = normaliseEmail(contact.email);
  for (let attempt = 0; attempt < 3; attempt++) {
    const found = await repo.claimCustomerByPhone(db, tenantId, { name: contact.name.trim(), phone, email });
    if (found) return found;
    // Neither inserted nor found: the e-mail is someone else's (store the customer without it), or a
    // racing booking committed this phone after the statement began (the next statement finds it).
    email = null;
  }
  throw errors.conflict('CUSTOMER_PHONE_EXISTS', 'Could not create or find the customer; try again');
}
