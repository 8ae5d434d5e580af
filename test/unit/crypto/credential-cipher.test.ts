import { expect } from 'chai';
import { isSealedWithOldKey, openCredentials, parseKeyring, sealCredentials } from '../../../domain/crypto/credential-cipher';

const key = (fill: number) => Buffer.alloc(32, fill).toString('base64');

describe('provider credentials sealed at rest', () => {
  const v1 = parseKeyring(`1:${key(1)}`);
  const v1v2 = parseKeyring(`1:${key(1)},2:${key(2)}`);

  it('when credentials are sealed then the sealed text holds no plaintext and opens to the same object', () => {
    const sealed = sealCredentials(v1, { apiKey: 'sk_live_secret', webhookSecret: 'whsec' });
    expect(sealed.keyVersion).to.equal(1);
    expect(sealed.sealed).to.not.contain('sk_live_secret');
    expect(Buffer.from(sealed.sealed, 'base64').toString('latin1')).to.not.contain('sk_live_secret');
    expect(openCredentials(v1, sealed)).to.deep.equal({ apiKey: 'sk_live_secret', webhookSecret: 'whsec' });
  });

  it('when a new key version is added then new seals use it and rows under the old one still open', () => {
    const old = sealCredentials(v1, { apiKey: 'a' });
    expect(isSealedWithOldKey(v1v2, old.keyVersion)).to.equal(true);
    expect(openCredentials(v1v2, old)).to.deep.equal({ apiKey: 'a' });
    const fresh = sealCredentials(v1v2, { apiKey: 'a' });
    expect(fresh.keyVersion).to.equal(2);
    expect(isSealedWithOldKey(v1v2, fresh.keyVersion)).to.equal(false);
    expect(() => openCredentials(v1, fresh)).to.throw(/key version 2/);
  });

  it('when the sealed text is altered or opened with another key then it fails without naming the secret', () => {
    const sealed = sealCredentials(v1, { apiKey: 'sk_live_secret' });
    const raw = Buffer.from(sealed.sealed, 'base64');
    raw[raw.length - 1] ^= 1;
    expect(() => openCredentials(v1, { ...sealed, sealed: raw.toString('base64') })).to.throw(/failed authentication/);
    expect(() => openCredentials(parseKeyring(`1:${key(9)}`), sealed)).to.throw(/failed authentication/).and.not.to.match(/sk_live/);
  });

  it('when CREDENTIAL_KEYS is malformed then the entry is named and the key material is not', () => {
    expect(() => parseKeyring('')).to.throw(/no key/);
    expect(() => parseKeyring(`1:${Buffer.alloc(16).toString('base64')}`)).to.throw(/16 bytes, not 32/);
    expect(() => parseKeyring(`1:${key(1)},1:${key(2)}`)).to.throw(/appears twice/);
    expect(() => parseKeyring('secret-without-version')).to.throw(/entry 1/).and.not.to.match(/secret-without/);
    expect(() => parseKeyring(`0:${key(1)}`)).to.throw(/start at 1/);
  });
});
