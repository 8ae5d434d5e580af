import { expect } from 'chai';
import { likePattern, normaliseEmail, normalisePhone } from '../../../domain/customer/customer.rules';

describe('customer contact normalisation', () => {
  it('when a phone has spaces, dashes, dots or brackets then they are removed and the + kept', () => {
    expect(normalisePhone(' +47 (912) 34-567 ')).to.equal('+4791234567');
    expect(normalisePhone('912.34.567')).to.equal('91234567');
  });
  it('when a phone or e-mail is empty or missing then it is null', () => {
    expect(normalisePhone('   ')).to.equal(null);
    expect(normalisePhone(null)).to.equal(null);
    expect(normaliseEmail(undefined)).to.equal(null);
    expect(normaliseEmail(' ')).to.equal(null);
  });
  it('when an e-mail has capitals or surrounding spaces then it is trimmed and lower-cased', () => {
    expect(normaliseEmail(' Kari@Example.NO ')).to.equal('kari@example.no');
  });
  it('when a search term holds LIKE wildcards then they are escaped', () => {
    expect(likePattern('50%_a\\b')).to.equal('%50\\%\\_a\\\\b%');
  });
});
