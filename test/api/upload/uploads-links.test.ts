// Linking uploads through the records' own PATCH routes (docs/rules/uploads.md#linking-files-to-records): the key is stored and the file
// linked in the same transaction; replacing or removing unlinks; a file is used by one record only.
import { expect } from 'chai';
import { stack } from '../../support/stack';
import { salonWithRoles, type RoleSalon } from '../../support/salon-roles';
import { png, uploadAs } from '../../support/upload-files';
import { tokenFor } from '../../support/factories';
import { call } from '../../support/http';
import { resourceIdForUser } from '../../../domain/resource/resource.service';

async function fileRow(id: string) {
  return (await stack()).platform.knex('uploaded_files').where({ id }).first();
}

describe('linking uploads to tenants, services and resources', function () {
  this.timeout(60_000);
  let s: RoleSalon;
  let other: RoleSalon;
  before(async () => {
    s = await salonWithRoles();
    other = await salonWithRoles();
  });

  const upload = async (purpose: string, token = s.owner.token) => (await uploadAs(token, purpose, await png())).body.data as { id: string; key: string };

  it('when the owner sets logo, cover and mobile cover then each file is referenced by the tenant; replacing the logo unlinks the old one', async () => {
    const [logo, cover, mobile, logo2] = [await upload('TENANT_LOGO'), await upload('TENANT_COVER'), await upload('TENANT_COVER'), await upload('TENANT_LOGO')];
    const res = await s.as('OWNER', 'patch', `/tenants/${s.tenant.id}`, { branding: { logoKey: logo.key, coverKey: cover.key, coverMobileKey: mobile.key } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data.branding).to.include({ logoKey: logo.key, coverKey: cover.key, coverMobileKey: mobile.key });
    expect((await fileRow(logo.id)).referencedBy).to.deep.equal({ type: 'tenant.logoKey', id: s.tenant.id });
    expect((await fileRow(mobile.id)).referencedBy).to.deep.equal({ type: 'tenant.coverMobileKey', id: s.tenant.id });
    expect((await fileRow(logo.id)).referencedAt).to.be.instanceOf(Date);

    expect((await s.as('OWNER', 'patch', `/tenants/${s.tenant.id}`, { branding: { logoKey: logo2.key } })).status).to.equal(200);
    expect(await fileRow(logo.id)).to.include({ referencedBy: null, referencedAt: null });
    expect((await fileRow(logo2.id)).referencedBy).to.deep.equal({ type: 'tenant.logoKey', id: s.tenant.id });
    expect((await fileRow(cover.id)).referencedBy).to.deep.equal({ type: 'tenant.coverKey', id: s.tenant.id });

    expect((await s.as('OWNER', 'patch', `/tenants/${s.tenant.id}`, { branding: { coverMobileKey: null } })).status).to.equal(200);
    expect((await fileRow(mobile.id)).referencedAt).to.equal(null);
  });

  it('when a file already used by one record is set on another then 409 UPLOAD_ALREADY_REFERENCED and nothing changes', async () => {
    const image = await upload('SERVICE_IMAGE');
    const a = await s.as('OWNER', 'post', '/services', { name: 'Klipp A', duration: 30, price: 100, imageKey: image.key });
    expect(a.status, JSON.stringify(a.body)).to.equal(201);
    const b = await s.as('OWNER', 'post', '/services', { name: 'Klipp B', duration: 30, price: 100 });
    const res = await s.as('OWNER', 'patch', `/services/${b.body.data.id}`, { imageKey: image.key });
    expect([res.status, res.body.error?.code]).to.deep.equal([409, 'UPLOAD_ALREADY_REFERENCED']);
    expect((await s.as('OWNER', 'get', `/services/${b.body.data.id}`)).body.data.imageKey).to.equal(null);
    // the same record again is fine (no change)
    expect((await s.as('OWNER', 'patch', `/services/${a.body.data.id}`, { imageKey: image.key })).status).to.equal(200);
  });

  it('when a service is deleted or its image removed then its file is unlinked', async () => {
    const image = await upload('SERVICE_IMAGE');
    const svc = await s.as('OWNER', 'post', '/services', { name: 'Farge', duration: 60, price: 100, imageKey: image.key });
    expect((await fileRow(image.id)).referencedBy).to.deep.equal({ type: 'service.imageKey', id: svc.body.data.id });
    expect((await s.as('OWNER', 'delete', `/services/${svc.body.data.id}`)).status).to.equal(204);
    expect((await fileRow(image.id)).referencedAt).to.equal(null);
  });

  it('when a key of another salon is set then 403 UPLOAD_TENANT_MISMATCH; an unknown key 404 UPLOAD_NOT_FOUND; a logo as a service image 400', async () => {
    const theirs = (await uploadAs(other.owner.token, 'SERVICE_IMAGE', await png())).body.data;
    const svc = await s.as('OWNER', 'post', '/services', { name: 'Vask', duration: 15, price: 100 });
    const mismatch = await s.as('OWNER', 'patch', `/services/${svc.body.data.id}`, { imageKey: theirs.key });
    expect([mismatch.status, mismatch.body.error.code]).to.deep.equal([403, 'UPLOAD_TENANT_MISMATCH']);
    const unknown = await s.as('OWNER', 'patch', `/services/${svc.body.data.id}`, { imageKey: `${s.tenant.id}/00000000-0000-4000-8000-000000000000.png` });
    expect([unknown.status, unknown.body.error.code]).to.deep.equal([404, 'UPLOAD_NOT_FOUND']);
    const legacy = await s.as('OWNER', 'patch', `/services/${svc.body.data.id}`, { imageKey: 'tenants/x/services/a.webp' });
    expect([legacy.status, legacy.body.error.code]).to.deep.equal([404, 'UPLOAD_NOT_FOUND']);
    const logo = await upload('TENANT_LOGO');
    const wrong = await s.as('OWNER', 'patch', `/services/${svc.body.data.id}`, { imageKey: logo.key });
    expect([wrong.status, wrong.body.error.code, wrong.body.error.details[0].field]).to.deep.equal([400, 'VALIDATION_ERROR', 'imageKey']);
  });

  it('when a STAFF member uploads an avatar and sets it on their own resource then it is linked', async () => {
    const resource = await s.as('OWNER', 'post', '/resources', {
      name: 'Kari',
      login: { email: `kari-${Date.now()}@example.test`, password: 'secret-password', role: 'STAFF' },
    });
    expect(resource.status, JSON.stringify(resource.body)).to.equal(201);
    const userId: string = resource.body.data.userId;
    const token = await tokenFor({ id: userId, tenantId: s.tenant.id, role: 'STAFF' });
    expect(await resourceIdForUser((await stack()).platform.knex, userId)).to.equal(resource.body.data.id);
    const avatar = await upload('RESOURCE_AVATAR', token);
    const res = await call('patch', `/resources/${resource.body.data.id}`, token, { avatarKey: avatar.key });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data.avatarKey).to.equal(avatar.key);
    expect((await fileRow(avatar.id)).referencedBy).to.deep.equal({ type: 'resource.avatarKey', id: resource.body.data.id });
  });
});
