// Payment configs (docs/rules/payments.md): OWNER CRUD, one active per salon, credentials sealed with
// AES-256-GCM under a versioned master key and never returned, rotation re-seals under the current
// key and checks health at once, health checks record time and status.
import { expect } from 'chai';
import crypto from 'node:crypto';
import request from 'supertest';
import { call } from '../../support/http';
import { appWith } from '../../support/stack';
import { knex } from '../../support/booking-fixtures';
import { createSalon, createUser } from '../../support/factories';
import { sandboxKey } from '../../support/payments';
import pino from 'pino';
import { DEV_CREDENTIAL_KEYS } from '../../../domain/crypto/credential-cipher';
import { createApp } from '../../../api/app';
import { stack } from '../../support/stack';

describe('payments: payment configs', function () {
  this.timeout(60_000);

  it('when the owner adds a config then it is inactive, names its credential fields and never returns or stores the secret in clear', async () => {
    const { owner } = await createSalon();
    const apiKey = sandboxKey();
    const res = await call('post', '/admin/payment-configs', owner.token, { provider: 'sandbox', displayName: 'Sandbox', credentials: { apiKey } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.data).to.include({ provider: 'sandbox', isActive: false, isTest: true, captureMode: 'AUTO', keyVersion: 1, lastHealthCheckAt: null });
    expect(res.body.data.credentialFields).to.deep.equal(['apiKey']);
    expect(JSON.stringify(res.body)).to.not.contain(apiKey);
    const list = await call('get', '/admin/payment-configs', owner.token);
    expect(JSON.stringify(list.body)).to.not.contain(apiKey);
    const row = await (await knex())('payment_configs').where({ id: res.body.data.id }).first();
    expect(JSON.stringify(row)).to.not.contain(apiKey);
    expect(row.keyVersion).to.equal(1);
  });

  it('when credentials are missing or the provider is unknown then 422 PAYMENT_CONFIG_EMPTY_CREDENTIALS or 404; staff are refused', async () => {
    const salon = await createSalon();
    const missing = await call('post', '/admin/payment-configs', salon.owner.token, { provider: 'sandbox', displayName: 'X', credentials: { other: 'x' } });
    expect(missing.status).to.equal(422);
    expect(missing.body.error.code).to.equal('PAYMENT_CONFIG_EMPTY_CREDENTIALS');
    const unknown = await call('post', '/admin/payment-configs', salon.owner.token, { provider: 'nosuch', displayName: 'X', credentials: { apiKey: 'x' } });
    expect(unknown.status).to.equal(404);
    const staff = await createUser(salon.tenant.id, 'STAFF');
    expect((await call('get', '/admin/payment-configs', staff.token)).status).to.equal(403);
  });

  it('when a second config is activated then the first is switched off: one active config per salon', async () => {
    const { owner } = await createSalon();
    const a = (await call('post', '/admin/payment-configs', owner.token, { provider: 'sandbox', displayName: 'A', credentials: { apiKey: sandboxKey() } })).body
      .data;
    const b = (
      await call('post', '/admin/payment-configs', owner.token, {
        provider: 'sandbox',
        displayName: 'B',
        captureMode: 'MANUAL',
        credentials: { apiKey: sandboxKey() },
      })
    ).body.data;
    expect((await call('post', `/admin/payment-configs/${a.id}/activate`, owner.token)).body.data.isActive).to.equal(true);
    expect((await call('post', `/admin/payment-configs/${b.id}/activate`, owner.token)).body.data.isActive).to.equal(true);
    const list = (await call('get', '/admin/payment-configs', owner.token)).body.data as { id: string; isActive: boolean }[];
    expect(list.filter((c) => c.isActive).map((c) => c.id)).to.deep.equal([b.id]);
    const patched = await call('patch', `/admin/payment-configs/${a.id}`, owner.token, { displayName: 'Renamed', captureMode: 'MANUAL' });
    expect(patched.body.data).to.include({ displayName: 'Renamed', captureMode: 'MANUAL' });
    expect((await call('delete', `/admin/payment-configs/${a.id}`, owner.token)).status).to.equal(204);
    expect((await call('get', `/admin/payment-configs/${a.id}`, owner.token)).status).to.equal(404);
  });

  it('when the health check runs then its time and status are recorded; rotating to refused credentials checks at once and records FAILED', async () => {
    const { owner } = await createSalon();
    const cfg = (await call('post', '/admin/payment-configs', owner.token, { provider: 'sandbox', displayName: 'A', credentials: { apiKey: sandboxKey() } }))
      .body.data;
    const ok = await call('post', `/admin/payment-configs/${cfg.id}/health-check`, owner.token);
    expect(ok.status).to.equal(200);
    expect(ok.body.data.lastHealthCheckStatus).to.equal('OK');
    expect(ok.body.data.lastHealthCheckAt).to.be.a('string');
    const rotated = await call('post', `/admin/payment-configs/${cfg.id}/rotate`, owner.token, { credentials: { apiKey: 'revoked-key' } });
    expect(rotated.status).to.equal(200);
    expect(rotated.body.data.lastHealthCheckStatus).to.equal('FAILED');
    expect(JSON.stringify(rotated.body)).to.not.contain('revoked-key');
  });

  it("when a salon's sealed credentials are copied into another salon's config row then they do not open there: its health check fails and it lists no credential fields", async () => {
    const a = await createSalon();
    const b = await createSalon();
    const cfgA = (await call('post', '/admin/payment-configs', a.owner.token, { provider: 'sandbox', displayName: 'A', credentials: { apiKey: sandboxKey() } }))
      .body.data;
    const cfgB = (
      await call('post', '/admin/payment-configs', b.owner.token, { provider: 'sandbox', displayName: 'B', credentials: { apiKey: 'b-own-key-that-fails' } })
    ).body.data;
    // someone with write access to the database moves A's blob into B's row (or into another row of A)
    const db = await knex();
    const stolen = await db('payment_configs').where({ id: cfgA.id }).first();
    await db('payment_configs').where({ id: cfgB.id }).update({ credentialsSealed: stolen.credentialsSealed, keyVersion: stolen.keyVersion });
    const checked = await call('post', `/admin/payment-configs/${cfgB.id}/health-check`, b.owner.token);
    expect(checked.status).to.equal(200);
    expect(checked.body.data).to.include({ lastHealthCheckStatus: 'FAILED' });
    expect(checked.body.data.credentialFields).to.deep.equal([]);
    // A's own row still opens
    expect((await call('post', `/admin/payment-configs/${cfgA.id}/health-check`, a.owner.token)).body.data.lastHealthCheckStatus).to.equal('OK');
  });

  it('when a new master key version is added then rotation re-seals the credentials under it', async () => {
    const { owner } = await createSalon();
    const cfg = (await call('post', '/admin/payment-configs', owner.token, { provider: 'sandbox', displayName: 'A', credentials: { apiKey: sandboxKey() } }))
      .body.data;
    expect(cfg.keyVersion).to.equal(1);
    const app = await appWith({ CREDENTIAL_KEYS: `${DEV_CREDENTIAL_KEYS},2:${crypto.randomBytes(32).toString('base64')}` });
    const rotated = await request(app)
      .post(`/api/admin/payment-configs/${cfg.id}/rotate`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ credentials: { apiKey: sandboxKey() } });
    expect(rotated.status, JSON.stringify(rotated.body)).to.equal(200);
    expect(rotated.body.data).to.include({ keyVersion: 2, lastHealthCheckStatus: 'OK' });
    expect(rotated.body.data.credentialFields).to.deep.equal(['apiKey']);
    expect((await (await knex())('payment_configs').where({ id: cfg.id }).first()).keyVersion).to.equal(2);
  });

  it('when configs are created, rotated, checked and webhooks are refused then no secret appears in any log line', async () => {
    const { platform } = await stack();
    const lines: string[] = [];
    const logger = pino({ level: 'trace' }, { write: (line: string) => void lines.push(line) });
    const app = createApp({ ...platform.deps, logger }, { validateResponses: true });
    const { owner, tenant } = await createSalon();
    const first = sandboxKey();
    const second = 'sk_bad_rotated_secret_value';
    const as = (req: request.Test) => req.set('Authorization', `Bearer ${owner.token}`);
    const created = await as(request(app).post('/api/admin/payment-configs')).send({ provider: 'sandbox', displayName: 'S', credentials: { apiKey: first } });
    expect(created.status).to.equal(201);
    await as(request(app).post('/api/admin/payment-configs')).send({ provider: 'sandbox', displayName: 'S', credentials: { other: 'another-secret-value' } });
    await as(request(app).post(`/api/admin/payment-configs/${created.body.data.id}/health-check`));
    await as(request(app).post(`/api/admin/payment-configs/${created.body.data.id}/rotate`)).send({ credentials: { apiKey: second } });
    await request(app)
      .post(`/api/webhooks/payments/sandbox/${tenant.id}`)
      .set('content-type', 'application/json')
      .set('sandbox-signature', 'x')
      .send('{"id":"evt_1"}');
    expect(lines.length).to.be.greaterThan(0);
    for (const secret of [first, second, 'another-secret-value']) expect(lines.join('\n')).to.not.contain(secret);
  });
});
