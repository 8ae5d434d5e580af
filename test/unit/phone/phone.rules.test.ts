import { expect } from 'chai';
import {
  callingCodeOf,
  optionalPhone,
  phoneRegionOf,
  phoneSearchTerm,
  regionOfCountry,
  requirePhone,
  samePhone,
  smsRecipient,
  toE164,
} from '../../../domain/phone/phone.rules';
import { AppError } from '../../../domain/errors';

describe('phone numbers (domain/phone)', () => {
  it('when one Norwegian mobile is typed in the ways people type it then every form is the same E.164 number', () => {
    for (const typed of ['98765433', '987 65 433', '+4798765433', '+47 987 65 433', '004798765433', '0047 987 65 433', ' (+47) 987-65-433 ']) {
      expect(toE164(typed, 'NO'), typed).to.equal('+4798765433');
    }
  });

  it('when a number has no country code then it is read in the salon’s country, and one with a code keeps it', () => {
    expect(toE164('070-123 45 67', 'SE')).to.equal('+46701234567');
    expect(toE164('20 12 34 56', 'DK')).to.equal('+4520123456');
    expect(toE164('+46 70 123 45 67', 'NO')).to.equal('+46701234567');
  });

  it('when the text is no number (too short or too long for its country, letters, a country code alone) then it is null, and required it is a 400 naming the field', () => {
    for (const typed of ['', '   ', '12', '9876543', '987654321', 'call me', '+47 1234567', '0701234567', '0047', null, undefined]) {
      expect(toE164(typed, 'NO'), String(typed)).to.equal(null);
    }
    try {
      requirePhone('1234', 'NO', 'customer.phone');
      expect.fail('accepted');
    } catch (err) {
      expect(err).to.be.instanceOf(AppError);
      expect(err).to.include({ status: 400, code: 'VALIDATION_ERROR' });
      expect((err as AppError).details?.[0].field).to.equal('customer.phone');
    }
  });

  it('when an optional number is left out then it is null, and when given it must be valid', () => {
    expect(optionalPhone(undefined, 'NO', 'phone')).to.equal(null);
    expect(optionalPhone(' ', 'NO', 'phone')).to.equal(null);
    expect(optionalPhone('987 65 433', 'NO', 'phone')).to.equal('+4798765433');
    expect(() => optionalPhone('abc', 'NO', 'login.phone')).to.throw(AppError);
  });

  it('when two numbers are compared then they are the same phone only when their E.164 forms are', () => {
    expect(samePhone('98765433', '004798765433', 'NO')).to.equal(true);
    expect(samePhone('+4798765433', '+4698765433', 'NO')).to.equal(false);
    expect(samePhone('98765433', '98765434', 'NO')).to.equal(false);
    expect(samePhone('', '', 'NO'), 'two missing numbers are no match').to.equal(false);
  });

  it('when the salon names its country as a code or a name then numbers are read there, and without one in Norway', () => {
    expect(phoneRegionOf({ address: { country: 'SE' } })).to.equal('SE');
    expect(phoneRegionOf({ address: { country: 'Sverige' } })).to.equal('SE');
    expect(phoneRegionOf({ address: { country: 'denmark' } })).to.equal('DK');
    expect(phoneRegionOf({ address: { country: 'Norge' } })).to.equal('NO');
    expect(phoneRegionOf({ address: { country: 'Atlantis' } })).to.equal('NO');
    expect(phoneRegionOf({ address: null })).to.equal('NO');
    expect(phoneRegionOf(undefined)).to.equal('NO');
    expect(regionOfCountry('xx')).to.equal(undefined);
    expect(callingCodeOf('SE')).to.equal('+46');
  });

  it('when an SMS goes out then it goes to E.164, and a stored number nobody could read goes as stored', () => {
    expect(smsRecipient('98765433')).to.equal('+4798765433');
    expect(smsRecipient('+4798765433')).to.equal('+4798765433');
    expect(smsRecipient('12')).to.equal('12');
  });

  it('when staff search for part of a number then its digits are matched', () => {
    expect(phoneSearchTerm('987 65')).to.equal('98765');
    expect(phoneSearchTerm('0047 987')).to.equal('+47987');
    expect(phoneSearchTerm('Kari')).to.equal(null);
  });
});
