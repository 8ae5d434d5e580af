// The HTTP edge a load balancer and browser front-ends meet, on the
// in-process app: API index, request ids, CORS, TLS permission check, metrics, the reset page,
// and the Sveve SMS adapter against a stand-in speaking Sveve's HTTP format.
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { expect } from 'chai';
import chai from 'chai';
import chaiAsPromised from 'chai-as-promised';
import request from 'supertest';
import { appWith } from '../support/stack';
import { startSveveStandIn, type SveveStandIn } from '../support/sveve-stand-in';
import { call, http as agent } from '../support/http';
import { createSalon, unique } from '../support/factories';
import { TenantModel } from '../../db/models/tenant.model';
import { SveveSmsSender } from '../../integrations/sms/sveve-sms-sender';
import { loadConfig, productionProblem } from '../../config';

chai.use(chaiAsPromised);

describe('HTTP edge for production', () => {
  it('when GET /api is called then it answers with the name, version and links to docs, health and the portal', async () => {
    const res = await call('get', '');
    expect(res.status).to.equal(200);
    expect(res.body.data).to.include({ name: 'salon-platform' });
    expect(res.body.data.links).to.deep.equal({ docs: '/api/docs', openapi: '/api/docs-json', health: '/api/health', publicTenants: '/api/public/tenants' });
  });

  it('when a request carries X-Request-Id then the response echoes it; without one a new id is made', async () => {
    const given = await (await agent()).get('/api/health').set('X-Request-Id', 'lb-1234-abcd');
    expect(given.headers['x-request-id']).to.equal('lb-1234-abcd');
    const made = await (await agent()).get('/api/health');
    expect(made.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    const junk = await (await agent()).get('/api/health').set('X-Request-Id', 'bad id with spaces');
    expect(junk.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
  });

  it('when a browser origin is listed, a salon subdomain or an active custom domain then CORS allows it with credentials; any other origin gets no CORS headers', async () => {
    const { tenant } = await createSalon();
    const domain = `${unique('book')}.example.no`;
    await TenantModel.query().patch({ customDomain: domain }).findById(tenant.id);
    const app = await appWith({ CORS_ORIGINS: 'https://admin.example.test', PLATFORM_DOMAIN: 'salon.test', CORS_MAX_AGE_SECONDS: '900' });
    for (const origin of ['https://admin.example.test', `https://${tenant.slug}.salon.test`, `https://${domain}`]) {
      const res = await request(app).get('/api/health').set('Origin', origin);
      expect(res.headers['access-control-allow-origin'], origin).to.equal(origin);
      expect(res.headers['access-control-allow-credentials']).to.equal('true');
    }
    const preflight = await request(app).options('/api/auth/login').set('Origin', 'https://admin.example.test').set('Access-Control-Request-Method', 'POST');
    expect(preflight.status).to.equal(204);
    expect(preflight.headers['access-control-max-age']).to.equal('900');
    for (const origin of ['https://evil.example', 'https://no-such-salon.salon.test']) {
      const res = await request(app).get('/api/health').set('Origin', origin);
      expect(res.headers, origin).to.not.have.property('access-control-allow-origin');
      const refused = await request(app).options('/api/auth/login').set('Origin', origin).set('Access-Control-Request-Method', 'POST');
      expect(refused.status, origin).to.equal(204);
      expect(refused.headers, origin).to.not.have.property('access-control-allow-origin');
    }
  });

  it('when a route is called with a method it does not have then 405 METHOD_NOT_ALLOWED with an Allow header listing its methods', async () => {
    const res = await call('put', '/auth/login', undefined, {});
    expect(res.status).to.equal(405);
    expect(res.body.error.code).to.equal('METHOD_NOT_ALLOWED');
    expect(res.headers.allow).to.match(/POST/);
  });

  it('when the TLS edge asks about a domain then 200 only for an active salon custom domain, else 404', async () => {
    const { tenant } = await createSalon();
    const domain = `${unique('tls')}.example.no`;
    await TenantModel.query().patch({ customDomain: domain }).findById(tenant.id);
    const ok = await call('get', `/internal/tls-allow?domain=${domain.toUpperCase()}`);
    expect(ok.status).to.equal(200);
    expect(ok.body.data).to.deep.equal({ domain, allowed: true });
    expect((await call('get', '/internal/tls-allow?domain=unknown.example.no')).status).to.equal(404);
    await TenantModel.query().patch({ isActive: false }).findById(tenant.id);
    expect((await call('get', `/internal/tls-allow?domain=${domain}`)).status).to.equal(404);
    expect((await call('get', '/internal/tls-allow')).status).to.equal(400);
  });

  it('when METRICS_TOKEN is set then /api/metrics needs it and serves Prometheus text; unset it is 404', async () => {
    // the shared test app has a token (the contract fuzz reads the metrics); one without any answers 404
    const unset = await appWith({ METRICS_TOKEN: undefined });
    expect((await request(unset).get('/api/metrics')).status).to.equal(404);
    const app = await appWith({ METRICS_TOKEN: 'metrics-token-for-tests-0123' });
    expect((await request(app).get('/api/metrics')).status).to.equal(401);
    expect((await request(app).get('/api/metrics').set('Authorization', 'Bearer wrong-token-0123456789')).status).to.equal(401);
    await request(app).get('/api/health');
    const res = await request(app).get('/api/metrics').set('Authorization', 'Bearer metrics-token-for-tests-0123');
    expect(res.status).to.equal(200);
    expect(res.text).to.match(/http_request_duration_seconds_count\{method="GET",route="\/api\/health",status="200"\} \d+/);
    // an error answer is labelled with the same route template as a success
    expect(res.text).to.match(/http_request_duration_seconds_count\{method="GET",route="\/api\/metrics",status="401"\} \d+/);
    expect(res.text).not.to.match(/route="\/metrics"/);
    expect(res.text).to.include('workflow_signal_failures_total');
    expect(res.text).to.include('bookings_created_total');
  });

  it('when the reset link of the e-mail is opened then the page with the new-password form exists', async () => {
    const res = await (await agent()).get('/reset-password?token=abc');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/text\/html/);
    expect(res.text).to.include('/api/auth/reset-password').and.include('<form');
  });

  it('when NODE_ENV=production then missing DATABASE_URL / TEMPORAL_ADDRESS and the dev JWT_SECRET / ADMIN_PASSWORD are refused by name', () => {
    const base = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://u:p@db/salon',
      TEMPORAL_ADDRESS: 'temporal:7233',
      JWT_SECRET: 'a-long-production-secret-0123456789',
      ADMIN_PASSWORD: 'production-admin',
      CREDENTIAL_KEYS: `1:${Buffer.alloc(32, 7).toString('base64')}`,
      S3_ENDPOINT: 'http://minio:9000',
      IMAGE_PROXY_SECRET: 'a-long-image-proxy-secret-0123',
    };
    expect(productionProblem(loadConfig(base))).to.equal(undefined);
    expect(productionProblem(loadConfig({ ...base, DATABASE_URL: undefined }))).to.match(/^DATABASE_URL/);
    expect(productionProblem(loadConfig({ ...base, TEMPORAL_ADDRESS: undefined }))).to.match(/^TEMPORAL_ADDRESS/);
    expect(productionProblem(loadConfig({ ...base, JWT_SECRET: undefined }))).to.match(/^JWT_SECRET/);
    expect(productionProblem(loadConfig({ ...base, ADMIN_PASSWORD: undefined }))).to.match(/^ADMIN_PASSWORD/);
    expect(productionProblem(loadConfig({ ...base, CREDENTIAL_KEYS: undefined }))).to.match(/^CREDENTIAL_KEYS/);
    expect(productionProblem(loadConfig({ ...base, S3_ENDPOINT: undefined }))).to.match(/^S3_ENDPOINT/);
    expect(productionProblem(loadConfig({ ...base, IMAGE_PROXY_SECRET: undefined }))).to.match(/^IMAGE_PROXY_SECRET/);
    expect(productionProblem(loadConfig({ ...base, NODE_ENV: 'development', JWT_SECRET: undefined }))).to.equal(undefined);
    expect(loadConfig({ PORT: '4100' }).publicBaseUrl).to.equal('http://localhost:4100');
  });

  it('when NODE_ENV=production then a JWT_SECRET under 32 bytes or PASSWORD_HASH_ROUNDS under 10 is refused by name; exactly 32 bytes and 10 rounds are fit (docs/rules/security.md#secrets-and-keys)', () => {
    const base = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://u:p@db/salon',
      TEMPORAL_ADDRESS: 'temporal:7233',
      ADMIN_PASSWORD: 'production-admin',
      CREDENTIAL_KEYS: `1:${Buffer.alloc(32, 7).toString('base64')}`,
      S3_ENDPOINT: 'http://minio:9000',
      IMAGE_PROXY_SECRET: 'a-long-image-proxy-secret-0123',
    };
    expect(productionProblem(loadConfig({ ...base, JWT_SECRET: 's'.repeat(32), PASSWORD_HASH_ROUNDS: '10' }))).to.equal(undefined);
    expect(productionProblem(loadConfig({ ...base, JWT_SECRET: 's'.repeat(31), PASSWORD_HASH_ROUNDS: '10' }))).to.match(/^JWT_SECRET is 31 bytes/);
    // bytes, not characters: 16 two-byte characters are 32 bytes
    expect(productionProblem(loadConfig({ ...base, JWT_SECRET: 'æ'.repeat(16), PASSWORD_HASH_ROUNDS: '10' }))).to.equal(undefined);
    expect(productionProblem(loadConfig({ ...base, JWT_SECRET: 's'.repeat(32), PASSWORD_HASH_ROUNDS: '9' }))).to.match(/^PASSWORD_HASH_ROUNDS is 9/);
    expect(productionProblem(loadConfig({ ...base, NODE_ENV: 'development', JWT_SECRET: 's'.repeat(16), PASSWORD_HASH_ROUNDS: '4' }))).to.equal(undefined);
  });

  it('when docker-compose passes optional variables as empty strings (${SVEVE_USER:-}) then they count as unset, and an empty secret is still refused', () => {
    const base = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://u:p@db/salon',
      TEMPORAL_ADDRESS: 'temporal:7233',
      JWT_SECRET: 'a-long-production-secret-0123456789',
      ADMIN_PASSWORD: 'production-admin',
      CREDENTIAL_KEYS: `1:${Buffer.alloc(32, 7).toString('base64')}`,
      S3_ENDPOINT: 'http://minio:9000',
      IMAGE_PROXY_SECRET: 'a-long-image-proxy-secret-0123',
    };
    const config = loadConfig({ ...base, SVEVE_USER: '', SVEVE_PASSWORD: '', METRICS_TOKEN: '', CORS_ORIGINS: '', SMTP_URL: '' });
    expect(productionProblem(config)).to.equal(undefined);
    expect(config.sveve).to.equal(undefined);
    expect(config.metricsToken).to.equal(undefined);
    expect(config.smtpUrl).to.equal(undefined);
    expect(config.corsOrigins).to.deep.equal([]);
    expect(productionProblem(loadConfig({ ...base, JWT_SECRET: '' }))).to.match(/^JWT_SECRET/);
  });
});

describe('docker-compose.yml (docs/rules/security.md#deployment)', () => {
  const compose = YAML.parse(fs.readFileSync(path.resolve(__dirname, '../../docker-compose.yml'), 'utf8')) as {
    services: Record<string, { ports?: string[]; environment?: Record<string, string> }>;
  };

  it('when the stack is published then only the api and MinIO listen on the network; the Temporal UI and Mailpit, which have no login, listen on this machine only', () => {
    const published = Object.entries(compose.services).flatMap(([name, service]) => (service.ports ?? []).map((port) => [name, String(port)] as const));
    for (const [name, port] of published) {
      if (name === 'api' || name === 'minio') continue;
      expect(port, name).to.match(/^127\.0\.0\.1:/);
    }
    expect(published.map(([name]) => name).sort()).to.deep.equal(['api', 'mailpit', 'minio', 'temporal-ui']);
  });

  it('when the production image installs its dependencies (npm ci --omit=dev) then s3rver, the embedded stand-in, and the fast-xml-parser it carries are not among them', () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(pkg.dependencies).to.not.have.property('s3rver');
    expect(pkg.devDependencies).to.have.property('s3rver');
    const lock = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
    for (const [name, entry] of Object.entries(lock.packages)) {
      if (/node_modules\/(s3rver|fast-xml-parser)$/.test(name)) expect(entry.dev, name).to.equal(true);
    }
  });

  it('when a secret is left unset then compose refuses to start: no MinIO secret (or any other) has a default', () => {
    const text = fs.readFileSync(path.resolve(__dirname, '../../docker-compose.yml'), 'utf8');
    for (const name of ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'JWT_SECRET', 'ADMIN_PASSWORD', 'CREDENTIAL_KEYS', 'IMAGE_PROXY_SECRET']) {
      const uses = [...text.matchAll(new RegExp(`\\$\\{${name}(:?[-?][^}]*)?\\}`, 'g'))].map((m) => m[0]);
      expect(uses, name).to.not.be.empty;
      for (const use of uses) expect(use, name).to.match(new RegExp(`^\\$\\{${name}:\\?`));
    }
  });
});

describe('Sveve SMS adapter against a stand-in speaking its HTTP format', () => {
  let sveve: SveveStandIn;

  before(async () => {
    sveve = await startSveveStandIn({ user: 'salon', password: 'right' });
  });

  after(() => sveve.close());

  it('when a message is sent then Sveve gets user, passwd, to (digits with country code), msg, from and f=json', async () => {
    await new SveveSmsSender({ url: sveve.url, user: 'salon', password: 'right', sender: 'Nordlys' }).send({
      to: '+47 955 55 555',
      text: 'Hei Ola, timen din er bekreftet.',
    });
    expect(Object.fromEntries(sveve.posts.at(-1)!)).to.deep.equal({
      user: 'salon',
      passwd: 'right',
      to: '4795555555',
      msg: 'Hei Ola, timen din er bekreftet.',
      from: 'Nordlys',
      f: 'json',
    });
  });

  it('when Sveve refuses (fatalError or no message accepted) then send rejects, so the activity retries', async () => {
    await expect(
      new SveveSmsSender({ url: sveve.url, user: 'salon', password: 'wrong', sender: 'Nordlys' }).send({ to: '+4795555555', text: 'x' }),
    ).to.be.rejectedWith(/Feil brukernavn/);
    await expect(new SveveSmsSender({ url: sveve.url, user: 'salon', password: 'right', sender: 'Nordlys' }).send({ to: '123', text: 'x' })).to.be.rejectedWith(
      /Ugyldig nummer/,
    );
  });
});
