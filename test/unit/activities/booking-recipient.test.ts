import { expect } from 'chai';
import { bookingRecipient } from '../../../activities/booking-recipient';

describe('who a message about a booking goes to (activities/booking-recipient.ts)', () => {
  const customer = { name: 'Kari Kunde', phone: '+4791111111', email: 'kari@example.no' };
  const none = { contactName: null, contactPhone: null, contactEmail: null };

  it('when the booking has its own contact then the message goes to it, named as the booking names it', () => {
    const booking = { contactName: 'Kari Gjest', contactPhone: '+4792222222', contactEmail: null, language: 'nb' as const };
    expect(bookingRecipient(booking, customer)).to.deep.equal({ name: 'Kari Gjest', contact: { phone: '+4792222222', email: 'kari@example.no' } });
  });

  it("when it has none then the customer's record; without a name the greeting's word in the booking's language", () => {
    expect(bookingRecipient({ ...none, language: 'nb' }, customer)).to.deep.equal({
      name: 'Kari Kunde',
      contact: { phone: '+4791111111', email: 'kari@example.no' },
    });
    expect(bookingRecipient({ ...none, language: 'en' }, null)).to.deep.equal({ name: 'customer', contact: { phone: null, email: null } });
    expect(bookingRecipient({ ...none, language: 'nb' }, null).name).to.equal('kunde');
  });
});
