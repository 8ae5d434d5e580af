import { expect } from 'chai';
import { call } from '../../support/http';
import { createSalon } from '../../support/factories';
import { platformAdmin } from '../../support/billing';
import { knex } from '../../support/booking-fixtures';

const BASE = '/superadmin/platform-settings';

describe('platform settings (/superadmin/platform-settings)', function () {
  this.timeout(60_000);
  let admin: string;

  before(async () => {
    admin = (await platformAdmin()).token;
  });
  after(async () => {
    await call('patch', BASE, admin, { bookingUiVersion: 'v2' });
  });

  it('when nobody or an owner calls the routes then 401 / 403, and nothing changes', async () => {
    const { owner } = await createSalon();
    expect((await call('get', BASE)).status).to.equal(401);
    expect((await call('get', BASE, owner.token)).status).to.equal(403);
    const refused = await call('patch', BASE, owner.token, { bookingUiVersion: 'v1' });
    expect(refused.status).to.equal(403);
    expect((await (await knex())('platform_settings').first()).bookingUiVersion).to.equal('v2');
  });

  it('when the admin reads the settings then bookingUiVersion defaults to v2', async () => {
    const res = await call('get', BASE, admin);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data.bookingUiVersion).to.equal('v2');
  });

  it('when the admin switches to v1 then it is stored with who did it, and an omitted field changes nothing', async () => {
    const { id } = await platformAdmin();
    const res = await call('patch', BASE, admin, { bookingUiVersion: 'v1' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data.bookingUiVersion).to.equal('v1');
    const row = await (await knex())('platform_settings').first();
    expect(row).to.include({ bookingUiVersion: 'v1', updatedBy: id });
    const unchanged = await call('patch', BASE, admin, {});
    expect(unchanged.body.data.bookingUiVersion).to.equal('v1');
  });

  it('when the version is not v1 or v2, or an unknown field is sent, then 400 VALIDATION_ERROR', async () => {
    for (const body of [{ bookingUiVersion: 'v3' }, { bookingUiVersion: null }, { theme: 'dark' }]) {
      const res = await call('patch', BASE, admin, body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
    }
  });
});
