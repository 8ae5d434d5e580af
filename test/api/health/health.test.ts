import { expect } from 'chai';
import { call } from '../../support/http';

describe('GET /health', () => {
  it('when the database and Temporal answer then it reports ok with both checks up', async () => {
    const res = await call('get', '/health');
    expect(res.status).to.equal(200);
    expect(res.body.success).to.equal(true);
    expect(res.body.data.status).to.equal('ok');
    expect(res.body.data.checks.database.status).to.equal('up');
    expect(res.body.data.checks.temporal.status).to.equal('up');
  });

  it('when a route does not exist then it answers 404 ROUTE_NOT_FOUND in the envelope', async () => {
    const res = await call('get', '/no-such-route');
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ success: false, error: { code: 'ROUTE_NOT_FOUND', message: res.body.error.message } });
  });
});
