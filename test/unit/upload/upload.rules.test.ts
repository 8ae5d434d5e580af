import { expect } from 'chai';
import {
  PURPOSES,
  maxBytesFor,
  mayDelete,
  mayDownload,
  mayUpload,
  orphanDeadline,
  sanitizeFileName,
  storageKey,
  tenantOfKey,
} from '../../../domain/upload/upload.rules';
import { formatOptions, outputFormat, parseOptions } from '../../../domain/upload/image-proxy.rules';

const T = '2049a750-5a63-48b2-961b-321133499d90';
const F = 'dd30d1cd-bb3b-4526-8f1d-a37fdfc31e09';

describe('upload rules', () => {
  it('when a key is built then it is {tenantId}/{uuid}.{ext}, and only such keys name a tenant', () => {
    expect(storageKey(T, F, 'image/jpeg')).to.equal(`${T}/${F}.jpg`);
    expect(tenantOfKey(`${T}/${F}.pdf`)).to.equal(T);
    for (const key of [`${T}/${F}.gif`, `${T}/../${F}.png`, `tenants/x/logo.png`, `${T}/${F}.png/extra`, `${T.toUpperCase()}/${F}.png`])
      expect(tenantOfKey(key), key).to.equal(undefined);
  });

  it('when names are sanitized then paths, control characters and markup are gone and length is capped', () => {
    const cases: [string | undefined, string | null][] = [
      ['../../etc/passwd', 'passwd'],
      ['C:\\Users\\kari\\logo.png', 'logo.png'],
      ['<img onerror=x>.png', '_img onerror=x_.png'],
      ['<script>x</script>.png', 'script_.png'],
      ['a\u0000b\u001fc.pdf', 'a_b_c.pdf'],
      ['...hidden', 'hidden'],
      ['   ', null],
      [undefined, null],
      ['Frisør  attest 2026.pdf', 'Frisør attest 2026.pdf'],
    ];
    for (const [input, expected] of cases) expect(sanitizeFileName(input), String(input)).to.equal(expected);
    expect(sanitizeFileName('x'.repeat(300))).to.have.length(255);
  });

  it('when limits are read then the purpose matrix holds, capped by the deployment ceilings', () => {
    const ceilings = { maxImageBytes: 5 * 1024 * 1024, maxDocumentBytes: 10 * 1024 * 1024 };
    expect(maxBytesFor('TENANT_LOGO', ceilings)).to.equal(2 * 1024 * 1024);
    expect(maxBytesFor('SERVICE_IMAGE', ceilings)).to.equal(3 * 1024 * 1024);
    expect(maxBytesFor('TENANT_COVER', { ...ceilings, maxImageBytes: 4 * 1024 * 1024 })).to.equal(4 * 1024 * 1024);
    expect(maxBytesFor('ONBOARDING_DOC', ceilings)).to.equal(10 * 1024 * 1024);
    expect(PURPOSES.ONBOARDING_DOC.mimeTypes).to.deep.equal(['application/pdf', 'image/png', 'image/jpeg']);
  });

  it('when roles act then the purpose decides: STAFF public images and own orphans; documents OWNER/ADMIN; payment attachments downloadable by STAFF', () => {
    expect(mayUpload('STAFF', 'RESOURCE_AVATAR')).to.equal(true);
    expect(mayUpload('STAFF', 'ONBOARDING_DOC')).to.equal(false);
    expect(mayUpload('CUSTOMER', 'TENANT_LOGO')).to.equal(false);
    expect(mayDownload('STAFF', 'PAYMENT_ATTACHMENT')).to.equal(true);
    expect(mayDownload('STAFF', 'ONBOARDING_DOC')).to.equal(false);
    expect(mayDownload('ADMIN', 'PAYMENT_ATTACHMENT')).to.equal(false);
    expect(mayDelete({ role: 'STAFF', userId: 'u1' }, { uploadedBy: 'u1', referencedAt: null })).to.equal(true);
    expect(mayDelete({ role: 'STAFF', userId: 'u1' }, { uploadedBy: 'u2', referencedAt: null })).to.equal(false);
    expect(mayDelete({ role: 'STAFF', userId: 'u1' }, { uploadedBy: 'u1', referencedAt: new Date() })).to.equal(false);
    expect(mayDelete({ role: 'OWNER', userId: 'u9' }, { uploadedBy: 'u1', referencedAt: new Date() })).to.equal(true);
  });

  it('when a file is created then it is an orphan 24 h later', () => {
    expect(orphanDeadline('2026-03-28T12:00:00.000Z')).to.equal(Date.parse('2026-03-29T12:00:00.000Z'));
  });
});

describe('image proxy options', () => {
  it('when every purpose preset is parsed then it formats back to itself', () => {
    for (const preset of Object.values(PURPOSES)
      .map((p) => p.preset)
      .filter((p): p is string => p !== null)) {
      expect(formatOptions(parseOptions(preset)!)).to.equal(preset);
    }
  });

  it('when options are unknown or out of range then they are refused', () => {
    for (const text of [
      '',
      'q:90',
      'rs:fit:0:10',
      'rs:fit:2401:10',
      'rs:crop:10:10',
      'rs:fit:10:10/g:xx',
      'rs:fit:10:10/q:101',
      'rs:fit:10:10/blur:5',
      'rs:fit:1e3:10',
    ]) {
      expect(parseOptions(text), text).to.equal(undefined);
    }
    expect(parseOptions('rs:fit:2400:2400/q:1')).to.deep.equal({ fit: 'fit', width: 2400, height: 2400, gravity: 'ce', quality: 1 });
  });

  it('when the Accept header is read then AVIF beats WebP beats the source format', () => {
    expect(outputFormat('image/avif,image/webp,*/*', 'image/jpeg')).to.equal('avif');
    expect(outputFormat('image/webp,*/*', 'image/png')).to.equal('webp');
    expect(outputFormat('*/*', 'image/png')).to.equal('png');
    expect(outputFormat(undefined, 'image/webp')).to.equal('jpeg');
  });
});
