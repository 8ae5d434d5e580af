// Which salon customer record a signed-in customer's booking is for, and whether it is theirs
// (docs/rules/customers.md#linking-an-account). A phone typed into a booking proves nothing: the
// record with that phone is the booking's customer (as for a guest), but it becomes the account's
// only when the account proved the phone, the one thing that identifies a record at its salon (a
// one-time code, phone-verification.service.ts). An e-mail proves nothing, verified by the identity
// provider or not: the record's e-mail is whatever the booking that made it typed. Booking reaches
// this through its BookingHooks port (composition/domain-hooks.ts).
import type { Transaction } from '../../db/db-handle';
import { findCustomer, customerIdOfAccount, linkProvenOwner } from '../customer/customer.repository';
import { findOrCreateCustomerByPhone } from '../customer/customer.service';
import { samePhone, type PhoneRegion } from '../phone/phone.rules';
import { findAccount, type CustomerAccountRow } from './customer-account.repository';

/** Whether the account has proven the customer record's phone (docs/rules/customers.md#linking-an-account). */
export function provesRecord(account: Pick<CustomerAccountRow, 'phone' | 'phoneVerifiedAt'>, record: { phone: string | null }): boolean {
  return account.phoneVerifiedAt !== null && samePhone(account.phone, record.phone);
}

export async function accountCustomer(
  trx: Transaction,
  input: { tenantId: string; region: PhoneRegion; accountId: string; contact: { name: string; phone: string; email?: string | null } },
): Promise<{ customerId: string; ownedByAccount: boolean }> {
  const linked = await customerIdOfAccount(trx, input.tenantId, input.accountId);
  if (linked) return { customerId: linked, ownedByAccount: true };
  const found = await findOrCreateCustomerByPhone(
    trx,
    input.tenantId,
    { name: input.contact.name, phone: input.contact.phone, email: input.contact.email ?? null },
    input.region,
  );
  const [account, record] = [await findAccount(trx, input.accountId), await findCustomer(trx, input.tenantId, found.id)];
  if (!account || !record || !provesRecord(account, record)) return { customerId: found.id, ownedByAccount: false };
  return { customerId: found.id, ownedByAccount: await linkProvenOwner(trx, input.tenantId, found.id, input.accountId) };
}
