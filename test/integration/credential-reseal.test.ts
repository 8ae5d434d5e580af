// Migrate seals again, bound to their rows, the provider credentials sealed before blobs were bound
// (docs/rules/auth.md#provider-credentials-at-rest): after it, no unbound blob is left to copy.
import { createCipheriv, randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { stack } from '../support/stack';
import { createSalon } from '../support/factories';
import { isUnbound, openCredentials } from '../../domain/crypto/credential-cipher';
import { paymentConfigBinding, resealUnboundPaymentCredentials } from '../../domain/payments/payment-config.service';

function unboundSeal(key: Buffer, credentials: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

describe('sealing unbound provider credentials again (migrate)', () => {
  it('when a payment config holds a blob sealed before binding then the re-seal binds it to its row, it opens there, and a second run finds nothing', async () => {
    const { platform, config } = await stack();
    const { tenant } = await createSalon();
    const [row] = await platform
      .knex('payment_configs')
      .insert({
        tenantId: tenant.id,
        provider: 'sandbox',
        displayName: 'Old',
        isActive: false,
        credentialsSealed: unboundSeal(config.credentialKeys.keys.get(1)!, { apiKey: 'sk_test_old00001' }),
        keyVersion: 1,
      })
      .returning('*');
    expect(await resealUnboundPaymentCredentials(platform.knex, config.credentialKeys)).to.be.greaterThan(0);
    const after = await platform.knex('payment_configs').where({ id: row.id }).first();
    expect(isUnbound(after.credentialsSealed)).to.equal(false);
    expect(
      openCredentials(config.credentialKeys, { sealed: after.credentialsSealed, keyVersion: after.keyVersion }, paymentConfigBinding(after)),
    ).to.deep.equal({ apiKey: 'sk_test_old00001' });
    expect(await resealUnboundPaymentCredentials(platform.knex, config.credentialKeys)).to.equal(0);
  });
});
