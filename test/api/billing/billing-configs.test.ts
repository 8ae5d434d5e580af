import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { call } from '../../support/http';
import { createSalon } from '../../support/factories';
import { stack } from '../../support/stack';
import { activateSandbox, platformAdmin } from '../../support/billing';
import { openCredentials } from '../../../domain/crypto/credential-cipher';
import { billingConfigBinding } from '../../../domain/billing/billing-config.service';

const BASE = '/superadmin/billing-configs';

function body(fields: Record<string, unknown> = {}) {
  return {
    provider: 'polar',
    isTest: true,
    apiBaseUrl: 'https://sandbox-api.polar.sh',
    displayName: 'Polar test',
    storeId: 'org_1',
    credentials: { apiKey: 'polar_key_1', webhookSecret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ=' },
    ...fields,
  };
}

describe('billing configs (/superadmin/billing-configs)', function () {
  this.timeout(60_000);
  let admin: string;

  beforeEach(async () => {
    admin = (await platformAdmin()).token;
    const { platform } = await stack();
    await platform.knex('platform_billing_configs').whereNot({ provider: 'sandbox' }).delete();
  });
  after(() => activateSandbox());

  it('when an owner or nobody calls the routes then 403 / 401', async () => {
    const { owner } = await createSalon();
    expect((await call('get', BASE)).status).to.equal(401);
    expect((await call('get', BASE, owner.token)).status).to.equal(403);
    expect((await call('post', BASE, owner.token, body())).status).to.equal(403);
  });

  it('when a config is created then its credentials are sealed with AES-256-GCM and a key version and never returned; a second one for the same provider and mode is 409 PLATFORM_BILLING_CONFIG_DUPLICATE', async () => {
    const res = await call('post', BASE, admin, body());
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.data).to.include({ provider: 'polar', isTest: true, isActive: false, keyVersion: 1, hasCredentials: true });
    expect(JSON.stringify(res.body)).to.not.contain('polar_key_1');
    const { platform, config } = await stack();
    const row = await platform.knex('platform_billing_configs').where({ id: res.body.data.id }).first();
    expect(row.sealedCredentials).to.not.contain('polar_key_1');
    expect(openCredentials(config.credentialKeys, { sealed: row.sealedCredentials, keyVersion: row.keyVersion }, billingConfigBinding(row.id))).to.deep.equal({
      apiKey: 'polar_key_1',
      webhookSecret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ=',
    });
    const dup = await call('post', BASE, admin, body({ displayName: 'again' }));
    expect(dup.status).to.equal(409);
    expect(dup.body.error.code).to.equal('PLATFORM_BILLING_CONFIG_DUPLICATE');
    expect((await call('post', BASE, admin, body({ isTest: false }))).status).to.equal(201);
  });

  it('when credentials are empty then 400 PLATFORM_BILLING_CONFIG_EMPTY_CREDENTIALS on create and on rotate', async () => {
    const res = await call('post', BASE, admin, body({ credentials: { apiKey: '  ', webhookSecret: 'x' } }));
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('PLATFORM_BILLING_CONFIG_EMPTY_CREDENTIALS');
    expect(res.body.error.details).to.deep.equal([{ field: 'credentials.apiKey', message: 'must not be empty' }]);
    const created = (await call('post', BASE, admin, body())).body.data;
    const rotate = await call('post', `${BASE}/${created.id}/rotate-credentials`, admin, { apiKey: 'k', webhookSecret: '' });
    expect(rotate.body.error.code).to.equal('PLATFORM_BILLING_CONFIG_EMPTY_CREDENTIALS');
  });

  it('when credentials are rotated then the new ones are sealed under the current key version; update changes only the other fields', async () => {
    const created = (await call('post', BASE, admin, body())).body.data;
    const rotated = await call('post', `${BASE}/${created.id}/rotate-credentials`, admin, { apiKey: 'polar_key_2', webhookSecret: 'whsec_bmV3LXNlY3JldA==' });
    expect(rotated.status).to.equal(200);
    const { platform, config } = await stack();
    const row = await platform.knex('platform_billing_configs').where({ id: created.id }).first();
    expect(
      openCredentials<{ apiKey: string }>(config.credentialKeys, { sealed: row.sealedCredentials, keyVersion: row.keyVersion }, billingConfigBinding(row.id))
        .apiKey,
    ).to.equal('polar_key_2');
    const updated = await call('put', `${BASE}/${created.id}`, admin, { displayName: 'Polar (test)', storeDomain: 'salong.polar.sh' });
    expect(updated.body.data).to.include({ displayName: 'Polar (test)', storeDomain: 'salong.polar.sh', apiBaseUrl: 'https://sandbox-api.polar.sh' });
    expect((await call('put', `${BASE}/${created.id}`, admin, { credentials: { apiKey: 'x', webhookSecret: 'y' } })).status).to.equal(400);
  });

  it('when a config is activated then every other one is deactivated in the same step; activating again is 409 _ALREADY_ACTIVE, deactivating twice 409 _ALREADY_INACTIVE', async () => {
    const sandboxId = await activateSandbox();
    const polar = (await call('post', BASE, admin, body())).body.data;
    const res = await call('post', `${BASE}/${polar.id}/activate`, admin);
    expect(res.status).to.equal(200);
    expect(res.body.data.isActive).to.equal(true);
    const { platform } = await stack();
    const active = await platform.knex('platform_billing_configs').where({ isActive: true }).select('id');
    expect(active.map((r: { id: string }) => r.id)).to.deep.equal([polar.id]);
    expect((await call('post', `${BASE}/${polar.id}/activate`, admin)).body.error.code).to.equal('PLATFORM_BILLING_CONFIG_ALREADY_ACTIVE');
    expect((await call('post', `${BASE}/${sandboxId}/deactivate`, admin)).body.error.code).to.equal('PLATFORM_BILLING_CONFIG_ALREADY_INACTIVE');
    expect((await call('post', `${BASE}/${polar.id}/deactivate`, admin)).body.data.isActive).to.equal(false);
  });

  it('when two configs are activated at the same time then exactly one ends up active', async () => {
    const a = (await call('post', BASE, admin, body())).body.data;
    const b = (await call('post', BASE, admin, body({ isTest: false }))).body.data;
    const results = await Promise.all([call('post', `${BASE}/${a.id}/activate`, admin), call('post', `${BASE}/${b.id}/activate`, admin)]);
    expect(results.map((r) => r.status)).to.deep.equal([200, 200]);
    const { platform } = await stack();
    expect(await platform.knex('platform_billing_configs').where({ isActive: true }).count({ n: '*' }).first()).to.deep.equal({ n: 1 });
  });

  it('when one config is activated while the active one is edited and health-checked then every request answers 200, round after round (the locks in one order)', async () => {
    const refusing = http.createServer((_req, res) => res.writeHead(401).end());
    await new Promise<void>((r) => refusing.listen(0, '127.0.0.1', () => r()));
    const polar = (await call('post', BASE, admin, body({ apiBaseUrl: `http://127.0.0.1:${(refusing.address() as AddressInfo).port}` }))).body.data;
    const sandboxId = await activateSandbox();
    try {
      const statuses: number[][] = [];
      for (let round = 0; round < 16; round++) {
        // each round activates the inactive config while the active one is changed and checked
        const [activating, busy] = round % 2 === 0 ? [polar.id, sandboxId] : [sandboxId, polar.id];
        const results = await Promise.all([
          call('put', `${BASE}/${busy}`, admin, { displayName: `busy ${round}` }),
          call('post', `${BASE}/${activating}/activate`, admin),
          call('post', `${BASE}/${busy}/health-check`, admin),
          call('put', `${BASE}/${busy}`, admin, { storeId: `store-${round}` }),
        ]);
        statuses.push(results.map((r) => r.status));
      }
      expect(statuses, 'no 409 CONCURRENT_UPDATE').to.deep.equal(statuses.map(() => [200, 200, 200, 200]));
      const { platform } = await stack();
      expect(await platform.knex('platform_billing_configs').where({ isActive: true }).select('id')).to.deep.equal([{ id: sandboxId }]);
    } finally {
      refusing.close();
    }
  });

  it('when a health check runs then OK or FAILED is recorded with the time', async () => {
    const sandboxId = await activateSandbox();
    const ok = await call('post', `${BASE}/${sandboxId}/health-check`, admin);
    expect(ok.status).to.equal(200);
    expect(ok.body.data.lastHealthCheckStatus).to.equal('OK');
    expect(ok.body.data.lastHealthCheckAt).to.be.a('string');
    // a provider that refuses the key
    const refusing = http.createServer((_req, res) => res.writeHead(401).end());
    await new Promise<void>((r) => refusing.listen(0, '127.0.0.1', () => r()));
    const polar = (await call('post', BASE, admin, body({ apiBaseUrl: `http://127.0.0.1:${(refusing.address() as AddressInfo).port}` }))).body.data;
    const failed = await call('post', `${BASE}/${polar.id}/health-check`, admin);
    refusing.close();
    expect(failed.body.data.lastHealthCheckStatus).to.equal('FAILED');
    expect(failed.body.data.failureReason).to.contain('401');
  });

  it('when plan mappings are replaced then the whole set is swapped atomically; an empty variant unmaps; an unknown plan changes nothing', async () => {
    const polar = (await call('post', BASE, admin, body())).body.data;
    const url = `${BASE}/${polar.id}/plan-mappings`;
    const first = await call('put', url, admin, {
      mappings: [
        { planKey: 'start', providerVariantId: 'prod_start' },
        { planKey: 'salong', providerVariantId: 'prod_salong' },
      ],
    });
    expect(first.body.data).to.deep.equal([
      { planKey: 'salong', providerVariantId: 'prod_salong' },
      { planKey: 'start', providerVariantId: 'prod_start' },
    ]);
    const bad = await call('put', url, admin, {
      mappings: [
        { planKey: 'start', providerVariantId: 'prod_new' },
        { planKey: 'no_such_plan', providerVariantId: 'x' },
      ],
    });
    expect(bad.status).to.equal(400);
    expect((await call('get', url, admin)).body.data).to.have.length(2);
    const second = await call('put', url, admin, {
      mappings: [
        { planKey: 'start', providerVariantId: '' },
        { planKey: 'team', providerVariantId: 'prod_team' },
      ],
    });
    expect(second.body.data).to.deep.equal([{ planKey: 'team', providerVariantId: 'prod_team' }]);
    const detail = await call('get', `${BASE}/${polar.id}`, admin);
    expect(detail.body.data.planMappings).to.deep.equal([{ planKey: 'team', providerVariantId: 'prod_team' }]);
  });

  it('when a config is deleted then it and its mappings are gone; unknown ids are 404 PLATFORM_BILLING_CONFIG_NOT_FOUND on every route', async () => {
    const polar = (await call('post', BASE, admin, body())).body.data;
    await call('put', `${BASE}/${polar.id}/plan-mappings`, admin, { mappings: [{ planKey: 'start', providerVariantId: 'p' }] });
    expect((await call('delete', `${BASE}/${polar.id}`, admin)).status).to.equal(204);
    const { platform } = await stack();
    expect(await platform.knex('platform_billing_plan_mappings').where({ configId: polar.id })).to.have.length(0);
    for (const [method, path, payload] of [
      ['get', `${BASE}/${polar.id}`],
      ['put', `${BASE}/${polar.id}`, { displayName: 'x' }],
      ['delete', `${BASE}/${polar.id}`],
      ['post', `${BASE}/${polar.id}/rotate-credentials`, { apiKey: 'a', webhookSecret: 'b' }],
      ['post', `${BASE}/${polar.id}/activate`],
      ['post', `${BASE}/${polar.id}/deactivate`],
      ['post', `${BASE}/${polar.id}/health-check`],
      ['get', `${BASE}/${polar.id}/plan-mappings`],
      ['put', `${BASE}/${polar.id}/plan-mappings`, { mappings: [] }],
    ] as const) {
      const res = await call(method, path, admin, payload);
      expect(res.status, `${method} ${path}`).to.equal(404);
      expect(res.body.error.code).to.equal('PLATFORM_BILLING_CONFIG_NOT_FOUND');
    }
  });
});
