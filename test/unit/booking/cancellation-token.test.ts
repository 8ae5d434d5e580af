import { expect } from 'chai';
import { hashToken, issueCancellationToken, verifyCancellationToken } from '../../../domain/booking/cancellation-token';

describe('cancellation token (signed, stored hashed)', () => {
  const secret = 'unit-test-secret-0123456789';
  const bookingId = '7f2c1c9e-3f7a-4c55-9c1e-2b7d8f1a0e11';

  it('when issued then it verifies for its booking against the stored hash', () => {
    const { token, hash } = issueCancellationToken(secret, bookingId);
    expect(hash).to.equal(hashToken(token));
    expect(verifyCancellationToken(secret, bookingId, token, hash)).to.equal(true);
  });

  it('when used for another booking, with another secret, tampered, or without a stored hash then it fails', () => {
    const { token, hash } = issueCancellationToken(secret, bookingId);
    expect(verifyCancellationToken(secret, '00000000-0000-4000-8000-000000000000', token, hash)).to.equal(false);
    expect(verifyCancellationToken('another-secret-0123456789', bookingId, token, hash)).to.equal(false);
    expect(verifyCancellationToken(secret, bookingId, `${token}x`, hash)).to.equal(false);
    expect(verifyCancellationToken(secret, bookingId, token.replace('.', '.A'), hash)).to.equal(false);
    expect(verifyCancellationToken(secret, bookingId, token, null)).to.equal(false);
    expect(verifyCancellationToken(secret, bookingId, 'a.b.c', hash)).to.equal(false);
  });

  it('when a valid signature is presented for a replaced token (hash differs) then it fails', () => {
    const first = issueCancellationToken(secret, bookingId);
    const second = issueCancellationToken(secret, bookingId);
    expect(verifyCancellationToken(secret, bookingId, first.token, second.hash)).to.equal(false);
  });
});
