/**
 * A guest proves a booking is theirs with its cancellation token (the manage link: until 14 days
 * after the appointment, manage-link.rules.ts) or the contact phone.
 */
import { errors } from '../errors';
import type { TenantContext } from '../tenant/tenant-context';
import { phoneRegionOf, samePhone } from '../phone/phone.rules';
import { verifyCancellationToken } from './cancellation-token';
import { isManageLinkValid } from './manage-link.rules';
import { nowOf } from '../time/clock';
import { findBooking } from './booking.repository';
import type { BookingDeps, BookingRow } from './booking.types';

export interface GuestProof {
  token?: string;
  phone?: string;
}

/** The booking when the proof matches; otherwise 404 (the booking does not exist for the caller: no leaking by id). */
export async function guestBooking(
  deps: Pick<BookingDeps, 'knex' | 'manageLinkKey' | 'now'>,
  tenant: TenantContext,
  id: string,
  proof: GuestProof,
): Promise<BookingRow> {
  const row = await findBooking(deps.knex, tenant.id, id);
  const ok =
    !!row &&
    ((proof.token !== undefined &&
      isManageLinkValid(row.endTime, nowOf(deps)) &&
      verifyCancellationToken(deps.manageLinkKey, id, proof.token, row.cancellationTokenHash)) ||
      // the number as typed, read in the salon's country, against the stored E.164 one
      (proof.phone !== undefined && samePhone(proof.phone, row.contactPhone, phoneRegionOf(tenant))));
  if (!ok) throw errors.notFound('booking');
  return row!;
}
