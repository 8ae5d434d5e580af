// Cross-cutting behaviour of the HTTP edge for this issue: rate limits (docs/rules/limits.md), health 503,
// envelope and validation (docs/rules/errors.md), body limit, malformed JSON, unexpected errors, API docs.
import { expect } from 'chai';
import request from 'supertest';
import type { Response as ExpressResponse } from 'express';
import { appWith, stack } from '../../support/stack';
import { call, http } from '../../support/http';
import { createAdmin, createSalon } from '../../support/factories';
import { createApp } from '../../../api/app';
import { sendPage } from '../../../api/envelope';
import { paginate } from '../../../db/paginate';
import { TenantModel } from '../../../db/models/tenant.model';
import { createKnex } from '../../../db/knex';
import pino from 'pino';

function expectRateHeaders(res: request.Response, limit: number, remaining: number) {
  expect(res.headers['x-ratelimit-limit']).to.equal(String(limit));
  expect(res.headers['x-ratelimit-remaining']).to.equal(String(remaining));
  expect(Number(res.headers['x-ratelimit-reset'])).to.be.greaterThan(0);
}

describe('Rate limits with the real values', () => {
  it('when an IP makes 10 auth requests in a minute then all pass with headers, and the 11th gets 429 RATE_LIMIT_EXCEEDED', async () => {
    const app = await appWith({ RATE_LIMIT_GLOBAL: '100', RATE_LIMIT_AUTH: '10' });
    for (let i = 1; i <= 10; i++) {
      const res = await request(app).post('/api/auth/login').send({ email: 'nobody@example.test', password: 'wrong' });
      expect(res.status, `request ${i}`).to.equal(401);
      expectRateHeaders(res, 10, 10 - i);
    }
    const res = await request(app).post('/api/auth/forgot-password').send({ email: 'nobody@example.test' });
    expect(res.status).to.equal(429);
    expect(res.body).to.deep.equal({ success: false, error: { code: 'RATE_LIMIT_EXCEEDED', message: res.body.error.message } });
    expectRateHeaders(res, 10, 0);
    // the global limit still lets other routes through
    expect((await request(app).get('/api/health')).status).to.equal(200);
  });

  it('when auth requests are limited then /auth/me is only under the global limit (clients call it on every page)', async () => {
    const app = await appWith({ RATE_LIMIT_GLOBAL: '100', RATE_LIMIT_AUTH: '10' });
    const { owner } = await createSalon();
    for (let i = 0; i < 12; i++) expect((await request(app).get('/api/auth/me').set('Authorization', `Bearer ${owner.token}`)).status).to.equal(200);
  });

  it('when an IP makes 100 requests in a minute then all pass, and the 101st gets 429 with headers', async () => {
    const app = await appWith({ RATE_LIMIT_GLOBAL: '100', RATE_LIMIT_AUTH: '10' });
    for (let i = 1; i <= 100; i++) {
      const res = await request(app).get('/api/health');
      expect(res.status, `request ${i}`).to.equal(200);
      if (i === 1 || i === 100) expectRateHeaders(res, 100, 100 - i);
    }
    const res = await request(app).get('/api/tenants/slug/anything');
    expect(res.status).to.equal(429);
    expect(res.body.error.code).to.equal('RATE_LIMIT_EXCEEDED');
    expectRateHeaders(res, 100, 0);
  });
});

describe('Health', () => {
  it('when a dependency is down then GET /health answers 503 naming what is down, and not the raw error (its hosts, users, ports), which goes to the log', async () => {
    const { platform } = await stack();
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const app = createApp(
      {
        ...platform.deps,
        logger,
        health: {
          ...platform.deps.health,
          cache: async () => {
            throw new Error('connect ECONNREFUSED 10.20.30.40:6379 (user cache_admin)');
          },
        },
      },
      { validateResponses: true },
    );
    const res = await request(app).get('/api/health');
    expect(res.status).to.equal(503);
    expect(res.body.success).to.equal(false);
    expect(res.body.error.code).to.equal('SERVICE_UNAVAILABLE');
    expect(res.body.error.message).to.contain('cache');
    expect(res.body.error.details).to.deep.equal([{ field: 'cache', message: 'unavailable' }]);
    expect(res.text).to.not.contain('10.20.30.40').and.not.contain('cache_admin');
    expect(lines.join('\n')).to.contain('10.20.30.40');
  });

  it('when a request with a token in its query string fails on the server then the log line keeps the parameter, not its value', async () => {
    const { platform } = await stack();
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const deadDatabase = createKnex('postgres://salon:salon@127.0.0.1:1/salon', { max: 1 });
    try {
      const app = createApp({ ...platform.deps, logger, knex: deadDatabase }, { validateResponses: true });
      const secret = 'manage-link-secret-0123456789';
      const res = await request(app).get(`/api/public/tenants/some-salon/bookings/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}?token=${secret}`);
      expect(res.status).to.be.within(500, 599);
      const failed = lines.find((l) => l.includes('request failed'))!;
      expect(failed).to.contain('token=[redacted]');
      expect(lines.join('\n')).to.not.contain(secret);
    } finally {
      await deadDatabase.destroy();
    }
  });
});

describe('Envelope and validation', () => {
  it('when page is at its maximum of 1000000 then an empty page comes back with that page number; past it, or not an integer, 400 naming page', async () => {
    const at = await call('get', '/public/tenants?page=1000000');
    expect(at.status).to.equal(200);
    expect(at.body.meta.page).to.equal(1000000);
    expect(at.body.data).to.deep.equal([]);
    for (const page of ['1000001', '1e400', '9007199254740993']) {
      const past = await call('get', `/public/tenants?page=${page}`);
      expect(past.status, page).to.equal(400);
      expect(past.body.error.details.map((d: { field: string }) => d.field)).to.include('page');
    }
  });

  it('when an empty list is paged with the defaults then meta is {total:0,page:1,limit:20,totalPages:0}', async () => {
    await stack();
    const page = await paginate(TenantModel.query().where('slug', 'no-such-slug-ever'), {});
    let sent: unknown;
    const res = {
      status: () => res,
      json: (body: unknown) => {
        sent = body;
      },
    } as unknown as ExpressResponse;
    sendPage(res, page);
    expect(sent).to.deep.equal({ success: true, data: [], meta: { total: 0, page: 1, limit: 20, totalPages: 0 } });
  });

  it('when a list is asked with defaults then meta shows page 1 and limit 20', async () => {
    const admin = await createAdmin();
    const res = await call('get', '/tenants', admin.token);
    expect(res.body.meta).to.include({ page: 1, limit: 20 });
    expect(res.body.meta.totalPages).to.equal(Math.ceil(res.body.meta.total / 20));
  });

  it('when unknown body fields are sent then 400 VALIDATION_ERROR with details [{field, message}]', async () => {
    const res = await call('post', '/auth/login', undefined, { email: 'a@example.test', password: 'x', hacker: true });
    expect(res.status).to.equal(400);
    expect(res.body.success).to.equal(false);
    expect(res.body.error.code).to.equal('VALIDATION_ERROR');
    expect(res.body.error.details).to.deep.include({
      field: 'hacker',
      message: res.body.error.details.find((d: { field: string }) => d.field === 'hacker').message,
    });
    for (const d of res.body.error.details) expect(d).to.have.keys('field', 'message');
  });

  it('when the JSON is malformed then 400 VALIDATION_ERROR', async () => {
    const res = await (await http()).post('/api/auth/login').set('Content-Type', 'application/json').send('{"email": "a@example.test", ');
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('VALIDATION_ERROR');
  });

  it('when the body is at the 1mb limit it is read (and validated), and one byte over gives 413', async () => {
    const limit = 1024 * 1024;
    const wrap = (n: number) => JSON.stringify({ email: 'a@example.test', password: 'p'.repeat(n) });
    const overhead = wrap(0).length;
    const at = wrap(limit - overhead);
    expect(Buffer.byteLength(at)).to.equal(limit);
    const ok = await (await http()).post('/api/auth/login').set('Content-Type', 'application/json').send(at);
    expect(ok.status).to.equal(400);
    expect(ok.body.error.code).to.equal('VALIDATION_ERROR');
    const over = await (
      await http()
    )
      .post('/api/auth/login')
      .set('Content-Type', 'application/json')
      .send(wrap(limit - overhead + 1));
    expect(over.status).to.equal(413);
    expect(over.body).to.deep.equal({ success: false, error: { code: 'PAYLOAD_TOO_LARGE', message: over.body.error.message } });
  });

  it('when something unexpected fails then 500 INTERNAL_ERROR without stack or internal message', async () => {
    const { platform } = await stack();
    const { owner } = await createSalon();
    const failingVerifier = {
      verify: async () => {
        throw new Error('oidc.internal:443 exploded with secret xyz');
      },
    };
    const app = createApp({ ...platform.deps, idTokenVerifier: failingVerifier }, { validateResponses: true });
    const res = await request(app)
      .post('/api/auth/customer/oauth')
      .send({ idToken: `${owner.id}.x.y`, nonce: 'nonce-12345678' });
    expect(res.status).to.equal(500);
    expect(res.body).to.deep.equal({ success: false, error: { code: 'INTERNAL_ERROR', message: 'Something went wrong on our side' } });
    expect(res.text).to.not.contain('oidc').and.not.contain('secret').and.not.contain('at ');
  });

  it('when /api/docs is opened then Swagger UI is served, and /api/docs-json is the contract with the auth and tenant routes', async () => {
    const ui = await (await http()).get('/api/docs/');
    expect(ui.status).to.equal(200);
    expect(ui.text).to.contain('swagger-ui');
    const doc = await (await http()).get('/api/docs-json');
    expect(doc.status).to.equal(200);
    expect(doc.body.openapi).to.match(/^3\./);
    expect(doc.body.paths).to.include.keys('/auth/login', '/auth/register', '/auth/refresh', '/tenants', '/tenants/{id}', '/tenants/me/onboarding');
  });
});
