import { expect } from 'chai';
import { http } from '../../support/http';

// docs/rules/errors.md#unknown-routes: answered right after the middleware every response needs
describe('unknown routes under /api', () => {
  const envelope = { success: false, error: { code: 'ROUTE_NOT_FOUND', message: 'No such route' } };

  it('when an unknown route is asked without credentials then 404 ROUTE_NOT_FOUND with the request id, security and rate-limit headers', async () => {
    const res = await (await http()).get('/api/no-such-route-fast');
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal(envelope);
    expect(res.headers['x-request-id']).to.be.a('string');
    expect(res.headers['x-content-type-options']).to.equal('nosniff');
    expect(res.headers['x-powered-by']).to.equal(undefined);
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) expect(res.headers[name], name).to.match(/^\d+$/);
  });

  it('when the same unknown route goes the long way (a cookie, a query) then the answer and its headers are the same', async () => {
    const agent = await http();
    const fast = await agent.get('/api/no-such-route-same');
    const withCookie = await agent.get('/api/no-such-route-same').set('Cookie', 'theme=dark');
    const withQuery = await agent.get('/api/no-such-route-same?page=1');
    const volatile = new Set(['date', 'x-request-id', 'x-ratelimit-remaining', 'x-ratelimit-reset']);
    const stable = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).filter(([name]) => !volatile.has(name)));
    for (const long of [withCookie, withQuery]) {
      expect(long.status).to.equal(404);
      expect(long.body).to.deep.equal(fast.body);
      expect(stable(long.headers)).to.deep.equal(stable(fast.headers));
    }
  });

  it('when an unknown route gets an unreadable body or a NUL in its path then the input is refused first (400), as before', async () => {
    const agent = await http();
    const malformed = await agent.post('/api/no-such-route-body').set('content-type', 'application/json').send('{"a":');
    expect(malformed.status).to.equal(400);
    expect(malformed.body.error.code).to.equal('VALIDATION_ERROR');
    const nul = await agent.get('/api/no-such-route-%00');
    expect(nul.status).to.equal(400);
    expect(nul.body.error.code).to.equal('VALIDATION_ERROR');
  });

  it('when a known path is asked with a method it does not have then 405 with Allow, not 404', async () => {
    const res = await (await http()).put('/api/health');
    expect(res.status).to.equal(405);
    expect(res.headers.allow).to.be.a('string');
  });
});
