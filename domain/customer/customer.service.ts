// Customers (spec 2.7, 4.6): per tenant, unique on normalised phone and on lower-cased e-mail
// (409 CUSTOMER_PHONE_EXISTS / CUSTOMER_EMAIL_EXISTS; a race that slips past the pre-check is mapped
// from the unique indexes in db/constraint-errors.ts). Creating a customer also creates its
// TenantCustomer row in the same transaction.
import type { Knex } from 'knex';
import { CustomerModel } from '../../db/models/customer.model';
import { TenantCustomerModel } from '../../db/models/tenant-customer.model';
import { paginate } from '../../db/paginate';
import { errors } from '../errors';
import { normaliseEmail, normalisePhone } from './customer.rules';
import { applyCustomerSearch } from './customer-search';
import { toTenantCustomerDto, type TenantCustomerDto } from './tenant-customer.service';
import { toIso } from '../time/iso';

export interface CustomerDto {
  id: string;
  name: string;
  phone: string | null;
  email: string | null;
  notes: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface CustomerInput {
  name: string;
  phone?: string | null;
  email?: string | null;
  notes?: string | null;
}

export type CustomerPatch = Partial<CustomerInput>;

export interface CustomerListQuery {
  page?: number;
  limit?: number;
  search?: string;
  sort?: 'createdAt' | 'name';
  order?: 'asc' | 'desc';
}

export function toCustomerDto(c: CustomerModel): CustomerDto {
  return {
    id: c.id,
    name: c.name,
    phone: c.phone,
    email: c.email,
    notes: c.notes,
    createdAt: toIso(c.createdAt),
    updatedAt: toIso(c.updatedAt),
  };
}

export const phoneExists = () => errors.conflict('CUSTOMER_PHONE_EXISTS', 'A customer with this phone already exists in this salon');
export const emailExists = () => errors.conflict('CUSTOMER_EMAIL_EXISTS', 'A customer with this e-mail already exists in this salon');

export async function listCustomers(tenantId: string, query: CustomerListQuery) {
  const q = CustomerModel.query().where('customers.tenantId', tenantId);
  applyCustomerSearch(q, query.search);
  q.orderBy(query.sort ?? 'createdAt', query.order ?? 'desc').orderBy('id', query.order ?? 'desc');
  const page = await paginate(q, query);
  return { ...page, rows: page.rows.map(toCustomerDto) };
}

async function findCustomer(trx: Knex.Transaction | undefined, tenantId: string, id: string, lock = false): Promise<CustomerModel> {
  const q = CustomerModel.query(trx).findOne({ id, tenantId });
  if (lock) q.forUpdate();
  const customer = await q;
  if (!customer) throw errors.notFound('customer');
  return customer;
}

export async function getCustomer(tenantId: string, id: string): Promise<CustomerDto> {
  return toCustomerDto(await findCustomer(undefined, tenantId, id));
}

async function checkContactFree(trx: Knex.Transaction, tenantId: string, phone: string | null, email: string | null, exceptId?: string): Promise<void> {
  if (phone) {
    const q = CustomerModel.query(trx).findOne({ tenantId, phone });
    if (exceptId) q.whereNot('id', exceptId);
    if (await q) throw phoneExists();
  }
  if (email) {
    const q = CustomerModel.query(trx).findOne({ tenantId, email });
    if (exceptId) q.whereNot('id', exceptId);
    if (await q) throw emailExists();
  }
}

async function ensureTenantCustomer(trx: Knex.Transaction, tenantId: string, customerId: string): Promise<TenantCustomerModel> {
  await trx('tenant_customers').insert({ tenantId, customerId }).onConflict().ignore();
  return TenantCustomerModel.query(trx).findOne({ tenantId, customerId }).throwIfNotFound();
}

export async function createCustomer(tenantId: string, input: CustomerInput): Promise<CustomerDto> {
  const phone = normalisePhone(input.phone);
  const email = normaliseEmail(input.email);
  return CustomerModel.transaction(async (trx) => {
    await checkContactFree(trx, tenantId, phone, email);
    const customer = await CustomerModel.query(trx).insert({ tenantId, name: input.name.trim(), phone, email, notes: input.notes ?? null });
    await ensureTenantCustomer(trx, tenantId, customer.id);
    return toCustomerDto(await findCustomer(trx, tenantId, customer.id));
  });
}

export async function updateCustomer(tenantId: string, id: string, patch: CustomerPatch): Promise<CustomerDto> {
  return CustomerModel.transaction(async (trx) => {
    await findCustomer(trx, tenantId, id, true);
    const changes: Partial<CustomerModel> = {};
    if (patch.name !== undefined) changes.name = patch.name!.trim();
    if (patch.phone !== undefined) changes.phone = normalisePhone(patch.phone);
    if (patch.email !== undefined) changes.email = normaliseEmail(patch.email);
    if (patch.notes !== undefined) changes.notes = patch.notes;
    await checkContactFree(trx, tenantId, changes.phone ?? null, changes.email ?? null, id);
    if (Object.keys(changes).length) await CustomerModel.query(trx).patch(changes).where({ id, tenantId });
    return toCustomerDto(await findCustomer(trx, tenantId, id));
  });
}

export interface FoundCustomer {
  customer: CustomerDto;
  tenantCustomer: TenantCustomerDto;
  /** true when this call created the customer */
  created: boolean;
}

/**
 * For the booking workflow (spec 2.7: a first booking creates the customer, matched by phone).
 * Matches on the normalised phone; an existing customer is returned unchanged (name and e-mail are
 * not merged). A new customer gets its TenantCustomer row too. Concurrency-safe: the insert is
 * ON CONFLICT DO NOTHING against the unique indexes, so two bookings racing for the same new phone
 * both end up with the one row, and the caller's transaction is never aborted by a unique violation.
 * If the e-mail already belongs to a different customer, the new customer is stored without it.
 */
export async function findOrCreateCustomerByPhone(
  trx: Knex.Transaction,
  tenantId: string,
  contact: { name: string; phone: string; email?: string | null },
): Promise<FoundCustomer> {
  const phone = normalisePhone(contact.phone);
  if (!phone) throw errors.validation('Request validation failed', [{ field: 'phone', message: 'is required' }]);
  let email = normaliseEmail(contact.email);
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted: { id: string }[] = await trx('customers')
      .insert({ tenantId, name: contact.name.trim(), phone, email })
      .onConflict()
      .ignore()
      .returning('id');
    const id = inserted[0]?.id ?? (await CustomerModel.query(trx).findOne({ tenantId, phone }))?.id;
    if (id) {
      const customer = await findCustomer(trx, tenantId, id);
      const tenantCustomer = await ensureTenantCustomer(trx, tenantId, id);
      return { customer: toCustomerDto(customer), tenantCustomer: toTenantCustomerDto(tenantCustomer, customer), created: inserted.length > 0 };
    }
    // Nothing inserted and no customer with this phone: the e-mail belongs to someone else.
    email = null;
  }
  throw errors.conflict('CUSTOMER_PHONE_EXISTS', 'Could not create or find the customer; try again');
}
