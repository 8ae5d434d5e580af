import { expect } from 'chai';
import { bookingRecipient } from '../../../activities/booking-recipient';

describe('who a message about a booking goes to (activities/booking-recipient.ts)', () => {
  const salon = { name: 'Salong', slug: 'salong', address: { country: 'NO' }, timezone: 'Europe/Oslo', contactPhone: null, contactEmail: null };
  const customer = { salon, customer: { name: 'Kari Kunde', phone: '+4791111111', email: 'kari@example.no' } };
  const nobody = { salon, customer: null };
  const none = { contactName: null, contactPhone: null, contactEmail: null };

  it('when the booking has its own contact then the message goes to it, named as the booking names it', () => {
    const booking = { contactName: 'Kari Gjest', contactPhone: '+4792222222', contactEmail: null, language: 'nb' as const };
    expect(bookingRecipient(booking, customer)).to.deep.equal({
      name: 'Kari Gjest',
      contact: { phone: '+4792222222', email: 'kari@example.no', smsCountry: 'NO' },
    });
  });

  it("when it has none then the customer's record; without a name the greeting's word in the booking's language", () => {
    expect(bookingRecipient({ ...none, language: 'nb' }, customer)).to.deep.equal({
      name: 'Kari Kunde',
      contact: { phone: '+4791111111', email: 'kari@example.no', smsCountry: 'NO' },
    });
    expect(bookingRecipient({ ...none, language: 'en' }, nobody)).to.deep.equal({ name: 'customer', contact: { phone: null, email: null, smsCountry: 'NO' } });
    expect(bookingRecipient({ ...none, language: 'nb' }, nobody).name).to.equal('kunde');
  });

  it("when the salon is in another country then the contact's SMS country is the salon's", () => {
    const swedish = { ...customer, salon: { ...salon, address: { country: 'Sverige' } } };
    expect(bookingRecipient({ ...none, language: 'nb' }, swedish).contact.smsCountry).to.equal('SE');
  });
});
