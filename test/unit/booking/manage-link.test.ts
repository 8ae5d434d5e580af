import { expect } from 'chai';
import { hashToken, issueManageToken, reissueManageToken, verifyManageToken } from '../../../domain/booking/manage-link.service';

describe("the manage link's token (signed, stored hashed)", () => {
  const secret = { key: 'unit-test-secret-0123456789' };
  const bookingId = '7f2c1c9e-3f7a-4c55-9c1e-2b7d8f1a0e11';

  it('when issued then it verifies for its booking against the stored hash', () => {
    const { token, hash } = issueManageToken(secret, bookingId);
    expect(hash).to.equal(hashToken(token));
    expect(verifyManageToken(secret, bookingId, token, hash)).to.equal(true);
  });

  it('when used for another booking, with another secret, tampered, or without a stored hash then it fails', () => {
    const { token, hash } = issueManageToken(secret, bookingId);
    expect(verifyManageToken(secret, '00000000-0000-4000-8000-000000000000', token, hash)).to.equal(false);
    expect(verifyManageToken({ key: 'another-secret-0123456789' }, bookingId, token, hash)).to.equal(false);
    expect(verifyManageToken(secret, bookingId, `${token}x`, hash)).to.equal(false);
    expect(verifyManageToken(secret, bookingId, token.replace('.', '.A'), hash)).to.equal(false);
    expect(verifyManageToken(secret, bookingId, token, null)).to.equal(false);
    expect(verifyManageToken(secret, bookingId, 'a.b.c', hash)).to.equal(false);
  });

  it('when a valid signature is presented against another stored hash then it fails', () => {
    const first = issueManageToken(secret, bookingId);
    const other = hashToken('a-token-issued-some-other-way');
    expect(verifyManageToken(secret, bookingId, first.token, other)).to.equal(false);
  });

  it('when the messages need the token later then the platform derives the same token from the booking id and its secret', () => {
    const issued = issueManageToken(secret, bookingId);
    expect(issueManageToken(secret, bookingId).token).to.equal(issued.token);
    expect(reissueManageToken(secret, bookingId, issued.hash)).to.equal(issued.token);
    expect(issueManageToken(secret, '00000000-0000-4000-8000-000000000000').token).to.not.equal(issued.token);
  });

  it('when the booking has no token, or its hash is of a token this secret did not derive, then no token is given back', () => {
    expect(reissueManageToken(secret, bookingId, null)).to.equal(null);
    expect(reissueManageToken(secret, bookingId, hashToken('random.token'))).to.equal(null);
    expect(reissueManageToken({ key: 'another-secret-0123456789' }, bookingId, issueManageToken(secret, bookingId).hash)).to.equal(null);
  });

  it('when a token was made with the legacy key (before each link got its own key) then it still verifies and is re-issued, and new tokens use the new key', () => {
    const legacy = issueManageToken({ key: 'the-old-jwt-secret-0123456789' }, bookingId);
    const split = { key: 'the-manage-link-key-0123456789', legacyKey: 'the-old-jwt-secret-0123456789' };
    expect(verifyManageToken(split, bookingId, legacy.token, legacy.hash)).to.equal(true);
    expect(reissueManageToken(split, bookingId, legacy.hash)).to.equal(legacy.token);
    const fresh = issueManageToken(split, bookingId);
    expect(fresh.token).to.not.equal(legacy.token);
    expect(verifyManageToken({ key: 'the-old-jwt-secret-0123456789' }, bookingId, fresh.token, fresh.hash)).to.equal(false);
  });
});
