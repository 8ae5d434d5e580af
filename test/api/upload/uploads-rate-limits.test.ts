// Upload rate limits (docs/rules/limits.md#rate-limits), per user (not per address): at the limit and one past it, on an app
// with the default values.
import { expect } from 'chai';
import request from 'supertest';
import { appWith } from '../../support/stack';
import { impersonationToken, salonWithRoles } from '../../support/salon-roles';
import { loadConfig } from '../../../config';

describe('upload rate limits per user', function () {
  this.timeout(60_000);

  it('when a user asks for 20 presigned PUTs in a minute they are answered; the 21st is 429 while another user of the same address goes on', async () => {
    const s = await salonWithRoles();
    const app = await appWith({ RATE_LIMIT_PRESIGNED_PUT: '20' });
    const presign = (token: string) =>
      request(app)
        .post('/api/upload/presigned-put')
        .set('Authorization', `Bearer ${token}`)
        .send({ purpose: 'ONBOARDING_DOC', mimeType: 'application/pdf', sizeBytes: 500 });
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await presign(s.owner.token)).status);
    expect(statuses).to.deep.equal(Array(20).fill(201));
    const past = await presign(s.owner.token);
    expect([past.status, past.body.error.code, past.headers['x-ratelimit-limit']]).to.deep.equal([429, 'RATE_LIMIT_EXCEEDED', '20']);
    expect((await presign(await impersonationToken(s.admin, s.tenant.id))).status).to.equal(201);
  });

  it('when a user deletes 20 times in a minute they are answered; the 21st is 429', async () => {
    const s = await salonWithRoles();
    const app = await appWith({ RATE_LIMIT_UPLOAD_DELETE: '20' });
    const del = () => request(app).delete('/api/upload/00000000-0000-4000-8000-000000000000').set('Authorization', `Bearer ${s.staff.token}`);
    for (let i = 0; i < 20; i++) expect((await del()).status).to.equal(404);
    const past = await del();
    expect([past.status, past.body.error.code]).to.deep.equal([429, 'RATE_LIMIT_EXCEEDED']);
  });

  it('when nothing is configured then the limits are the documented defaults (30 multipart, 20 presigned PUT, 60 presigned GET, 20 delete, 600 signing)', () => {
    expect(loadConfig({}).rateLimit).to.include({ upload: 30, presignedPut: 20, presignedGet: 60, uploadDelete: 20, imageSign: 600 });
  });
});
