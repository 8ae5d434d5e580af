// Private documents through the presigned flow (docs/rules/uploads.md#private-documents): presign, PUT to storage, confirm
// (size, type and SHA-256 checked), download; storage failures; deletion rules.
import crypto from 'node:crypto';
import { expect } from 'chai';
import request from 'supertest';
import { stack } from '../../support/stack';
import { salonWithRoles, type RoleSalon } from '../../support/salon-roles';
import { pdf, png, uploadAs } from '../../support/upload-files';
import { createApp } from '../../../api/app';
import { S3Storage } from '../../../integrations/storage/s3-storage';

const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

async function presign(s: RoleSalon, body: Record<string, unknown>, as: 'OWNER' | 'STAFF' | 'ADMIN' = 'OWNER') {
  return s.as(as, 'post', '/upload/presigned-put', body);
}

async function put(url: string, bytes: Buffer, headers: Record<string, string>) {
  return fetch(url, { method: 'PUT', body: bytes, headers });
}

describe('presigned document uploads', function () {
  this.timeout(60_000);
  let s: RoleSalon;
  let other: RoleSalon;
  before(async () => {
    s = await salonWithRoles();
    other = await salonWithRoles();
  });

  it('when the owner presigns, PUTs and confirms a PDF then it becomes ACTIVE and downloads for 3600 s with the same bytes', async () => {
    const doc = pdf(2000);
    const pre = await presign(s, {
      purpose: 'ONBOARDING_DOC',
      mimeType: 'application/pdf',
      sizeBytes: doc.length,
      checksumSha256: sha256(doc),
      fileName: 'Firmaattest 2026.pdf',
    });
    expect(pre.status, JSON.stringify(pre.body)).to.equal(201);
    const { uploadUrl, fileId, key, headers, expiresAt } = pre.body.data;
    expect(key).to.equal(`${s.tenant.id}/${fileId}.pdf`);
    expect(new URL(uploadUrl).searchParams.get('X-Amz-Expires')).to.equal('300');
    expect(new URL(uploadUrl).searchParams.get('X-Amz-SignedHeaders')).to.include('content-length').and.include('content-type');
    expect(Date.parse(expiresAt) - Date.now()).to.be.within(290_000, 300_000);
    const row = await (await stack()).platform.knex('uploaded_files').where({ id: fileId }).first();
    expect(row).to.include({ status: 'PENDING_UPLOAD', visibility: 'PRIVATE' });

    expect((await put(uploadUrl, doc, headers)).status).to.equal(200);
    const confirmed = await s.as('OWNER', 'post', `/upload/confirm/${fileId}`);
    expect(confirmed.status, JSON.stringify(confirmed.body)).to.equal(200);
    expect(confirmed.body.data).to.include({ status: 'ACTIVE', checksumSha256: sha256(doc), sizeBytes: doc.length, originalName: 'Firmaattest 2026.pdf' });

    const get = await s.as('OWNER', 'get', `/upload/presigned-get/${fileId}`);
    expect(get.status).to.equal(200);
    expect(new URL(get.body.data.downloadUrl).searchParams.get('X-Amz-Expires')).to.equal('3600');
    const downloaded = Buffer.from(await (await fetch(get.body.data.downloadUrl)).arrayBuffer());
    expect(sha256(downloaded)).to.equal(sha256(doc));
  });

  it('when confirm is called before anything was PUT then 404 UPLOAD_NOT_FOUND and the file stays pending', async () => {
    const doc = pdf(500);
    const pre = await presign(s, { purpose: 'ONBOARDING_DOC', mimeType: 'application/pdf', sizeBytes: doc.length });
    const { fileId, uploadUrl, headers } = pre.body.data;
    const rowOf = async () => (await stack()).platform.knex('uploaded_files').where({ id: fileId }).first();
    const presigned = await rowOf();
    const res = await s.as('OWNER', 'post', `/upload/confirm/${fileId}`);
    expect(res.status).to.equal(404);
    expect(res.body.error.code).to.equal('UPLOAD_NOT_FOUND');
    expect(await rowOf(), 'the row as it was presigned').to.deep.equal(presigned);
    expect(presigned).to.include({ status: 'PENDING_UPLOAD' });
    expect((await s.as('OWNER', 'get', `/upload/${fileId}`)).body.data).to.include({ id: fileId, status: 'PENDING_UPLOAD' });
    // still pending, so still completed the usual way
    expect((await put(uploadUrl, doc, headers)).status).to.equal(200);
    const confirmed = await s.as('OWNER', 'post', `/upload/confirm/${fileId}`);
    expect(confirmed.status, JSON.stringify(confirmed.body)).to.equal(200);
    expect(confirmed.body.data).to.include({ status: 'ACTIVE', sizeBytes: doc.length });
  });

  it('when the PUT object has another size or checksum than declared then confirm is 422 UPLOAD_INTEGRITY_FAILED and the object is removed', async () => {
    const doc = pdf(1000);
    const wrongSize = await presign(s, { purpose: 'ONBOARDING_DOC', mimeType: 'application/pdf', sizeBytes: 1500 });
    // s3rver does not enforce the signed content-length (real S3/MinIO refuse this PUT): confirm must
    await put(wrongSize.body.data.uploadUrl, doc, { 'content-type': 'application/pdf' });
    const r1 = await s.as('OWNER', 'post', `/upload/confirm/${wrongSize.body.data.fileId}`);
    expect(r1.status).to.equal(422);
    expect(r1.body.error.code).to.equal('UPLOAD_INTEGRITY_FAILED');
    expect(await (await stack()).platform.deps.storage.head(wrongSize.body.data.key)).to.equal(undefined);

    const wrongSum = await presign(s, {
      purpose: 'PAYMENT_ATTACHMENT',
      mimeType: 'application/pdf',
      sizeBytes: doc.length,
      checksumSha256: sha256(Buffer.from('something else')),
    });
    await put(wrongSum.body.data.uploadUrl, doc, wrongSum.body.data.headers);
    const r2 = await s.as('OWNER', 'post', `/upload/confirm/${wrongSum.body.data.fileId}`);
    expect(r2.status).to.equal(422);
    expect(r2.body.error.code).to.equal('UPLOAD_INTEGRITY_FAILED');
  });

  it('when a PNG is PUT where a PDF was declared then confirm is 400 UPLOAD_TYPE_MISMATCH', async () => {
    const image = await png();
    const pre = await presign(s, { purpose: 'ONBOARDING_DOC', mimeType: 'application/pdf', sizeBytes: image.length });
    await put(pre.body.data.uploadUrl, image, { 'content-type': 'application/pdf' });
    const res = await s.as('OWNER', 'post', `/upload/confirm/${pre.body.data.fileId}`);
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('UPLOAD_TYPE_MISMATCH');
  });

  it('when a document is declared at 10 MB it is presigned; one byte more is 413 UPLOAD_TOO_LARGE; 99 bytes is UPLOAD_TOO_SMALL; a GIF is UPLOAD_INVALID_TYPE', async () => {
    const limit = 10 * 1024 * 1024;
    expect((await presign(s, { purpose: 'ONBOARDING_DOC', mimeType: 'application/pdf', sizeBytes: limit })).status).to.equal(201);
    const over = await presign(s, { purpose: 'ONBOARDING_DOC', mimeType: 'application/pdf', sizeBytes: limit + 1 });
    expect([over.status, over.body.error.code]).to.deep.equal([413, 'UPLOAD_TOO_LARGE']);
    const small = await presign(s, { purpose: 'ONBOARDING_DOC', mimeType: 'application/pdf', sizeBytes: 99 });
    expect([small.status, small.body.error.code]).to.deep.equal([400, 'UPLOAD_TOO_SMALL']);
    const gif = await presign(s, { purpose: 'ONBOARDING_DOC', mimeType: 'image/gif', sizeBytes: 500 });
    expect([gif.status, gif.body.error.code]).to.deep.equal([400, 'UPLOAD_INVALID_TYPE']);
  });

  it('when a public image purpose is presigned then 400 VALIDATION_ERROR (images go through POST /upload to be checked and cleaned)', async () => {
    const res = await presign(s, { purpose: 'TENANT_LOGO', mimeType: 'image/png', sizeBytes: 500 });
    expect([res.status, res.body.error.code, res.body.error.details[0].field]).to.deep.equal([400, 'VALIDATION_ERROR', 'purpose']);
  });

  it('when STAFF presigns a document then 403 UPLOAD_PURPOSE_FORBIDDEN (private documents are OWNER and ADMIN)', async () => {
    const res = await presign(s, { purpose: 'ONBOARDING_DOC', mimeType: 'application/pdf', sizeBytes: 500 }, 'STAFF');
    expect([res.status, res.body.error.code]).to.deep.equal([403, 'UPLOAD_PURPOSE_FORBIDDEN']);
  });

  it('when STAFF asks to download an onboarding document then 403; a payment attachment they may download', async () => {
    const doc = pdf(600);
    const ids: Record<string, string> = {};
    for (const purpose of ['ONBOARDING_DOC', 'PAYMENT_ATTACHMENT']) {
      const pre = await presign(s, { purpose, mimeType: 'application/pdf', sizeBytes: doc.length });
      await put(pre.body.data.uploadUrl, doc, pre.body.data.headers);
      expect((await s.as('OWNER', 'post', `/upload/confirm/${pre.body.data.fileId}`)).status).to.equal(200);
      ids[purpose] = pre.body.data.fileId;
    }
    const onboarding = await s.as('STAFF', 'get', `/upload/presigned-get/${ids.ONBOARDING_DOC}`);
    expect([onboarding.status, onboarding.body.error?.code]).to.deep.equal([403, 'UPLOAD_PURPOSE_FORBIDDEN']);
    expect((await s.as('STAFF', 'get', `/upload/presigned-get/${ids.PAYMENT_ATTACHMENT}`)).status).to.equal(200);
    expect((await s.as('IMPERSONATOR', 'get', `/upload/presigned-get/${ids.ONBOARDING_DOC}`)).status).to.equal(200);
    expect((await s.as('ADMIN', 'get', `/upload/presigned-get/${ids.ONBOARDING_DOC}`)).status).to.equal(403);
    // another salon does not see it at all
    expect((await other.as('OWNER', 'get', `/upload/presigned-get/${ids.PAYMENT_ATTACHMENT}`)).status).to.equal(404);
  });

  it('when the storage does not answer then 502 UPLOAD_PROVIDER_ERROR after its retries and no row is written', async () => {
    const { platform } = await stack();
    const dead = new S3Storage({
      endpoint: 'http://127.0.0.1:9',
      bucket: 'salon-uploads',
      region: 'us-east-1',
      accessKeyId: 'x',
      secretAccessKey: 'y',
      forcePathStyle: true,
      maxAttempts: 2,
    });
    const app = createApp({ ...platform.deps, storage: dead }, { validateResponses: true });
    const before = await platform.knex('uploaded_files').where({ tenantId: s.tenant.id }).count<{ count: number }[]>('* as count');
    const res = await request(app)
      .post('/api/upload')
      .set('Authorization', `Bearer ${s.owner.token}`)
      .field('purpose', 'TENANT_LOGO')
      .attach('file', await png(), 'logo.png');
    expect([res.status, res.body.error.code]).to.deep.equal([502, 'UPLOAD_PROVIDER_ERROR']);
    const after = await platform.knex('uploaded_files').where({ tenantId: s.tenant.id }).count<{ count: number }[]>('* as count');
    expect(after[0].count).to.equal(before[0].count);
    dead.close();
  });
});

describe('DELETE /upload/:id', function () {
  this.timeout(60_000);
  let s: RoleSalon;
  before(async () => {
    s = await salonWithRoles();
  });

  it("when STAFF deletes their own unused image then 204 and the object is gone; another user's file is 403", async () => {
    const own = (await uploadAs(s.staff.token, 'RESOURCE_AVATAR', await png())).body.data;
    const owners = (await uploadAs(s.owner.token, 'SERVICE_IMAGE', await png())).body.data;
    expect((await s.as('STAFF', 'delete', `/upload/${owners.id}`)).status).to.equal(403);
    expect((await s.as('STAFF', 'delete', `/upload/${own.id}`)).status).to.equal(204);
    expect(await (await stack()).platform.deps.storage.head(own.key)).to.equal(undefined);
    expect(await (await stack()).platform.knex('uploaded_files').where({ id: own.id }).first()).to.equal(undefined);
    expect((await s.as('STAFF', 'delete', `/upload/${own.id}`)).status).to.equal(404);
  });

  it('when a file is in use then STAFF may not delete it (403) and the OWNER may: the record loses the key', async () => {
    const logo = (await uploadAs(s.staff.token, 'TENANT_LOGO', await png())).body.data;
    expect((await s.as('OWNER', 'patch', `/tenants/${s.tenant.id}`, { branding: { logoKey: logo.key } })).status).to.equal(200);
    expect((await s.as('STAFF', 'delete', `/upload/${logo.id}`)).status).to.equal(403);
    expect((await s.as('OWNER', 'delete', `/upload/${logo.id}`)).status).to.equal(204);
    const tenant = await s.as('OWNER', 'get', `/tenants/${s.tenant.id}`);
    expect(tenant.body.data.branding.logoKey).to.equal(undefined);
  });
});
