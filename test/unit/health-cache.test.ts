// GET /health under load: one round of probes answers every caller within the report's lifetime.
import { expect } from 'chai';
import { cachedHealthCheck } from '../../domain/health/health.service';

describe('cached health check', () => {
  it('when 50 callers ask at once then the probes run once and all get the same report', async () => {
    let probes = 0;
    const health = cachedHealthCheck({ database: async () => void probes++ }, 60_000);
    const reports = await Promise.all(Array.from({ length: 50 }, () => health()));
    expect(probes).to.equal(1);
    expect(new Set(reports).size).to.equal(1);
    expect(reports[0].status).to.equal('ok');
  });

  it('when the report is older than its lifetime then the next caller probes again and sees a dependency go down', async () => {
    let down = false;
    const health = cachedHealthCheck(
      {
        database: async () => {
          if (down) throw new Error('connection refused');
        },
      },
      20,
    );
    expect((await health()).status).to.equal('ok');
    down = true;
    expect((await health()).status, 'within the lifetime').to.equal('ok');
    await new Promise((r) => setTimeout(r, 30));
    const report = await health();
    expect(report.status).to.equal('degraded');
    expect(report.down).to.deep.equal(['database']);
  });
});
