// Uploads (docs/rules/uploads.md, docs/rules/errors.md#named-codes, docs/rules/limits.md) through HTTP, with real files generated per test, stored
// in the embedded stack's S3-compatible server (s3rver).
import { expect } from 'chai';
import sharp from 'sharp';
import { stack } from '../../support/stack';
import { salonWithRoles, type RoleSalon } from '../../support/salon-roles';
import { executable, jpeg, jpegWithGps, png, png50Megapixels, png60Megapixels, pngOfSize, uploadAs, webp } from '../../support/upload-files';

async function storedBytes(key: string): Promise<Buffer | undefined> {
  const body = await (await stack()).platform.deps.storage.read(key);
  if (!body) return undefined;
  const parts: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Buffer>) parts.push(chunk);
  return Buffer.concat(parts);
}

async function fileRow(id: string) {
  return (await stack()).platform.knex('uploaded_files').where({ id }).first();
}

describe('POST /upload (multipart public images)', function () {
  this.timeout(60_000);
  let s: RoleSalon;
  before(async () => {
    s = await salonWithRoles();
  });

  it('when the owner uploads a PNG logo then it is stored under {tenantId}/{uuid}.png with its size, dimensions and SHA-256', async () => {
    const res = await uploadAs(s.owner.token, 'TENANT_LOGO', await png(320, 200), 'Logo ../../etc/passwd.png');
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const data = res.body.data;
    expect(data.key).to.match(new RegExp(`^${s.tenant.id}/[0-9a-f-]{36}\\.png$`));
    expect(data).to.include({
      purpose: 'TENANT_LOGO',
      visibility: 'PUBLIC',
      status: 'ACTIVE',
      mimeType: 'image/png',
      width: 320,
      height: 200,
      originalName: 'passwd.png',
      referencedBy: null,
    });
    const stored = await storedBytes(data.key);
    expect(stored!.length).to.equal(data.sizeBytes);
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(stored!).digest('hex')).to.equal(data.checksumSha256);
    const row = await fileRow(data.id);
    expect(row).to.include({ tenantId: s.tenant.id, uploadedBy: s.owner.id, checksumSha256: data.checksumSha256 });
  });

  it('when a JPEG carries EXIF with a GPS position then the stored image has no EXIF at all', async () => {
    const original = await jpegWithGps();
    expect((await sharp(original).metadata()).exif, 'the test file has EXIF').to.not.equal(undefined);
    const res = await uploadAs(s.staff.token, 'RESOURCE_AVATAR', original, 'me.jpg');
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.data.mimeType).to.equal('image/jpeg');
    const stored = await storedBytes(res.body.data.key);
    const meta = await sharp(stored!).metadata();
    expect(meta.exif).to.equal(undefined);
    expect(stored!.includes(Buffer.from('TestCam'))).to.equal(false);
  });

  it('when a WebP cover is uploaded then it is accepted as image/webp', async () => {
    const res = await uploadAs(s.owner.token, 'TENANT_COVER', await webp(640, 160), 'cover.webp');
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.data).to.include({ mimeType: 'image/webp', width: 640, height: 160 });
    expect(res.body.data.key).to.match(/\.webp$/);
  });

  it('when an executable is renamed .png then 400 UPLOAD_INVALID_TYPE and nothing is stored', async () => {
    const before = await (await stack()).platform.knex('uploaded_files').where({ tenantId: s.tenant.id }).count<{ count: number }[]>('* as count');
    const res = await uploadAs(s.owner.token, 'TENANT_LOGO', executable(), 'logo.png');
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('UPLOAD_INVALID_TYPE');
    const after = await (await stack()).platform.knex('uploaded_files').where({ tenantId: s.tenant.id }).count<{ count: number }[]>('* as count');
    expect(after[0].count).to.equal(before[0].count);
  });

  it('when a JPEG is sent as image/png then 400 UPLOAD_TYPE_MISMATCH', async () => {
    const res = await uploadAs(s.owner.token, 'SERVICE_IMAGE', await jpeg(), 'photo.png', 'image/png');
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('UPLOAD_TYPE_MISMATCH');
  });

  it('when a PDF or a GIF is sent for an image purpose then 400 UPLOAD_INVALID_TYPE', async () => {
    const gif = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#fff' } })
      .gif()
      .toBuffer();
    const res = await uploadAs(s.owner.token, 'SERVICE_IMAGE', Buffer.concat([gif, Buffer.alloc(200)]), 'a.gif', 'image/gif');
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('UPLOAD_INVALID_TYPE');
  });

  it('when the file has 99 bytes then 400 UPLOAD_TOO_SMALL; with 100 bytes it is accepted', async () => {
    const small = await uploadAs(s.owner.token, 'TENANT_LOGO', await pngOfSize(99), 'tiny.png');
    expect(small.status).to.equal(400);
    expect(small.body.error.code).to.equal('UPLOAD_TOO_SMALL');
    const enough = await uploadAs(s.owner.token, 'TENANT_LOGO', await pngOfSize(100), 'tiny.png');
    expect(enough.status, JSON.stringify(enough.body)).to.equal(201);
    expect(enough.body.data).to.include({ width: 2, height: 2 });
  });

  it('when a logo is exactly 2 MB it is accepted, one byte more is 413 UPLOAD_TOO_LARGE', async () => {
    const limit = 2 * 1024 * 1024;
    const atLimit = await uploadAs(s.owner.token, 'TENANT_LOGO', await pngOfSize(limit), 'big.png');
    expect(atLimit.status, JSON.stringify(atLimit.body)).to.equal(201);
    const over = await uploadAs(s.owner.token, 'TENANT_LOGO', await pngOfSize(limit + 1), 'big.png');
    expect(over.status).to.equal(413);
    expect(over.body.error.code).to.equal('UPLOAD_TOO_LARGE');
  });

  for (const [purpose, mb] of [
    ['SERVICE_IMAGE', 3],
    ['TENANT_COVER', 5],
    ['PORTFOLIO_PHOTO', 5],
    ['RESOURCE_AVATAR', 2],
  ] as const) {
    it(`when a ${purpose} is exactly ${mb} MB it is accepted, one byte more is 413 UPLOAD_TOO_LARGE`, async () => {
      const limit = mb * 1024 * 1024;
      const atLimit = await uploadAs(s.owner.token, purpose, await pngOfSize(limit), 'big.png');
      expect(atLimit.status, JSON.stringify(atLimit.body)).to.equal(201);
      const over = await uploadAs(s.owner.token, purpose, await pngOfSize(limit + 1), 'big.png');
      expect([over.status, over.body.error.code]).to.deep.equal([413, 'UPLOAD_TOO_LARGE']);
    });
  }

  it('when a PNG has exactly 50 megapixels then it is accepted', async () => {
    const res = await uploadAs(s.owner.token, 'TENANT_COVER', await png50Megapixels(), 'wide.png');
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.data).to.include({ width: 10000, height: 5000 });
  });

  it('when a PNG has 60 megapixels then 400 UPLOAD_DIMENSIONS_TOO_LARGE (read from its header)', async () => {
    const res = await uploadAs(s.owner.token, 'TENANT_COVER', await png60Megapixels(), 'huge.png');
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('UPLOAD_DIMENSIONS_TOO_LARGE');
  });

  it('when the purpose is a private document then 400 VALIDATION_ERROR naming purpose (documents go through presigned-put)', async () => {
    const res = await uploadAs(s.owner.token, 'ONBOARDING_DOC', await png(), 'doc.png');
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('VALIDATION_ERROR');
    expect(res.body.error.details[0].field).to.equal('purpose');
  });

  it('when the purpose is missing or the file part is missing then 400 VALIDATION_ERROR', async () => {
    const noPurpose = await uploadAs(s.owner.token, undefined, await png(), 'a.png');
    expect(noPurpose.status).to.equal(400);
    expect(noPurpose.body.error.details[0].field).to.equal('purpose');
    const noFile = await uploadAs(s.owner.token, 'TENANT_LOGO', undefined);
    expect(noFile.status).to.equal(400);
    expect(noFile.body.error.details[0].field).to.equal('file');
  });

  it('when nobody is signed in then 401 and nothing is read', async () => {
    expect((await uploadAs(undefined, 'TENANT_LOGO', await png())).status).to.equal(401);
  });
});
