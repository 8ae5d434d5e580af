import { expect } from 'chai';
import { likePattern, normaliseEmail } from '../../../domain/customer/customer.rules';

describe('customer contact normalisation', () => {
  it('when an e-mail is empty or missing then it is null', () => {
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
