// Which salon customer record a signed-in customer's booking is for, and whether it is theirs
// (docs/rules/customers.md#linking-an-account). A phone typed into a booking proves nothing: the
// record with that phone is the booking's customer (as for a guest), but it becomes the account's
// only when the account proved the phone (a one-time code, phone-verification.service.ts) or the
// identity provider verified the account's e-mail and the record has it. Booking reaches this
// through its BookingHooks port (composition/domain-hooks.ts).
import type { Transaction } from '../../db/db-handle';
import { findCustomer, customerIdOfAccount, linkProvenOwner } from '../customer/customer.repository';
import { findOrCreateCustomerByPhone } from '../customer/customer.service';
import { normaliseEmail } from '../customer/customer.rules';
import { samePhone, type PhoneRegion } from '../phone/phone.rules';
import { findAccount, type CustomerAccountRow } from './customer-account.repository';

/** Whether the account has proven the customer record's phone or e-mail. */
export function provesRecord(
  account: Pick<CustomerAccountRow, 'phone' | 'phoneVerifiedAt' | 'email' | 'emailVerified'>,
  record: { phone: string | null; email: string | null },
): boolean {
  const phone = account.phoneVerifiedAt !== null && samePhone(account.phone, record.phone);
  const email = account.emailVerified && normaliseEmail(account.email) !== null && normaliseEmail(account.email) === normaliseEmail(record.email);
  return phone || email;
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
