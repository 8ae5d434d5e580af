// Who a message about a booking goes to, and how it greets them: the booking's own contact (a guest's
// snapshot), else its customer's record; "kunde" / "customer" when neither has a name. The booking's
// and the payment's messages both address the booking's customer this way.
import type { BookingMessageParties } from '../domain/booking/booking-message.repository';
import type { BookingRow } from '../domain/booking/booking.types';
import type { Contact } from './message-delivery';
import { phoneRegionOf } from '../domain/phone/phone.rules';

export function bookingRecipient(
  booking: Pick<BookingRow, 'contactName' | 'contactPhone' | 'contactEmail' | 'language'>,
  { customer, salon }: Pick<BookingMessageParties, 'customer' | 'salon'>,
): { name: string; contact: Contact } {
  return {
    name: booking.contactName ?? customer?.name ?? (booking.language === 'en' ? 'customer' : 'kunde'),
    contact: {
      phone: booking.contactPhone ?? customer?.phone ?? null,
      email: booking.contactEmail ?? customer?.email ?? null,
      smsCountry: phoneRegionOf(salon),
    },
  };
}
