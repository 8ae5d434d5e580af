// Every response carries the security headers (helmet's, recorded once at start-up by
// api/middleware/security-headers.ts), whatever route answers it, and never X-Powered-By.
import { expect } from 'chai';
import { http } from '../../support/http';
import { createSalon } from '../../support/factories';

const EXPECTED = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

describe('security headers', () => {
  it('when the api answers 200, 401, 404 or serves the booking page then every response carries the security headers and no X-Powered-By', async () => {
    const { tenant } = await createSalon();
    const agent = await http();
    const responses = await Promise.all([agent.get('/api/health'), agent.get('/api/bookings'), agent.get('/api/no-such-route'), agent.get(`/${tenant.slug}`)]);
    expect(responses.map((r) => r.status)).to.deep.equal([200, 401, 404, 200]);
    for (const [i, res] of responses.entries()) {
      expect(res.headers, `response ${i}`).to.include(EXPECTED);
      expect(res.headers).not.to.have.property('x-powered-by');
    }
  });
});
