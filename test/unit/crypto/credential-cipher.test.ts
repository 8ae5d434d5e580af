import { createCipheriv, randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { isSealedWithOldKey, isUnbound, openCredentials, parseKeyring, sealCredentials } from '../../../domain/crypto/credential-cipher';

const key = (fill: number) => Buffer.alloc(32, fill).toString('base64');
const ROW = 'payment_configs/tenant-a/config-1';

/** A blob as it was sealed before blobs were bound to their rows: no associated data, no prefix. */
function unboundSeal(keyBase64: string, credentials: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(keyBase64, 'base64'), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

describe('provider credentials sealed at rest', () => {
  const v1 = parseKeyring(`1:${key(1)}`);
  const v1v2 = parseKeyring(`1:${key(1)},2:${key(2)}`);

  it('when credentials are sealed then the sealed text holds no plaintext and opens to the same object', () => {
    const sealed = sealCredentials(v1, { apiKey: 'sk_live_secret', webhookSecret: 'whsec' }, ROW);
    expect(sealed.keyVersion).to.equal(1);
    expect(sealed.sealed).to.not.contain('sk_live_secret');
    expect(Buffer.from(sealed.sealed.slice(3), 'base64').toString('latin1')).to.not.contain('sk_live_secret');
    expect(openCredentials(v1, sealed, ROW)).to.deep.equal({ apiKey: 'sk_live_secret', webhookSecret: 'whsec' });
  });

  it("when a sealed blob is copied into another row (another salon's config, another config) then it does not open there", () => {
    const sealed = sealCredentials(v1, { apiKey: 'sk_live_secret' }, ROW);
    for (const other of ['payment_configs/tenant-b/config-1', 'payment_configs/tenant-a/config-2', 'platform_billing_configs/config-1']) {
      expect(() => openCredentials(v1, sealed, other), other)
        .to.throw(/failed authentication/)
        .and.not.to.match(/sk_live/);
    }
  });

  it('when a blob was sealed before rows were bound then it still opens, and is marked for sealing again', () => {
    const old = { sealed: unboundSeal(key(1), { apiKey: 'a' }), keyVersion: 1 };
    expect(isUnbound(old.sealed)).to.equal(true);
    expect(isSealedWithOldKey(v1, old.keyVersion, old.sealed)).to.equal(true);
    expect(openCredentials(v1, old, ROW)).to.deep.equal({ apiKey: 'a' });
    expect(isUnbound(sealCredentials(v1, { apiKey: 'a' }, ROW).sealed)).to.equal(false);
  });

  it('when a new key version is added then new seals use it and rows under the old one still open', () => {
    const old = sealCredentials(v1, { apiKey: 'a' }, ROW);
    expect(isSealedWithOldKey(v1v2, old.keyVersion)).to.equal(true);
    expect(openCredentials(v1v2, old, ROW)).to.deep.equal({ apiKey: 'a' });
    const fresh = sealCredentials(v1v2, { apiKey: 'a' }, ROW);
    expect(fresh.keyVersion).to.equal(2);
    expect(isSealedWithOldKey(v1v2, fresh.keyVersion)).to.equal(false);
    expect(() => openCredentials(v1, fresh, ROW)).to.throw(/key version 2/);
  });

  it('when the sealed text is altered or opened with another key then it fails without naming the secret', () => {
    const sealed = sealCredentials(v1, { apiKey: 'sk_live_secret' }, ROW);
    const raw = Buffer.from(sealed.sealed.slice(3), 'base64');
    raw[raw.length - 1] ^= 1;
    expect(() => openCredentials(v1, { ...sealed, sealed: `v2:${raw.toString('base64')}` }, ROW)).to.throw(/failed authentication/);
    expect(() => openCredentials(parseKeyring(`1:${key(9)}`), sealed, ROW))
      .to.throw(/failed authentication/)
      .and.not.to.match(/sk_live/);
  });

  it('when CREDENTIAL_KEYS is malformed then the entry is named and the key material is not', () => {
    expect(() => parseKeyring('')).to.throw(/no key/);
    expect(() => parseKeyring(`1:${Buffer.alloc(16).toString('base64')}`)).to.throw(/16 bytes, not 32/);
    expect(() => parseKeyring(`1:${key(1)},1:${key(2)}`)).to.throw(/appears twice/);
    expect(() => parseKeyring('secret-without-version'))
      .to.throw(/entry 1/)
      .and.not.to.match(/secret-without/);
    expect(() => parseKeyring(`0:${key(1)}`)).to.throw(/start at 1/);
  });
});
