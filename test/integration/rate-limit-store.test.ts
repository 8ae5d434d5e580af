// The shared rate-limit counters (docs/rules/limits.md#rate-limits) as every api process uses them: one upsert per request,
// correct under concurrency, a fresh window once the old one ended.
import { expect } from 'chai';
import crypto from 'node:crypto';
import { stack } from '../support/stack';
import { PostgresRateLimitStore } from '../../api/middleware/rate-limit-store';
import type { Options } from 'express-rate-limit';

async function store(windowMs = 60_000) {
  const s = new PostgresRateLimitStore((await stack()).platform.knex, `test-${crypto.randomUUID()}:`);
  s.init({ windowMs } as Options);
  return s;
}

describe('Postgres rate-limit store', () => {
  it('when 50 requests of one client arrive at once then each gets its own count, 1 to 50, in one window', async () => {
    const s = await store();
    const results = await Promise.all(Array.from({ length: 50 }, () => s.increment('198.51.100.7')));
    expect(results.map((r) => r.totalHits).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(new Set(results.map((r) => r.resetTime!.getTime())).size).to.equal(1);
    expect((await s.get('198.51.100.7'))!.totalHits).to.equal(50);
  });

  it('when two stores (two api processes) count the same client then they share one budget; other clients and limiters have their own', async () => {
    const a = await store();
    const b = new PostgresRateLimitStore((await stack()).platform.knex, a.prefix);
    b.init({ windowMs: 60_000 } as Options);
    await a.increment('203.0.113.1');
    expect((await b.increment('203.0.113.1')).totalHits).to.equal(2);
    expect((await b.increment('203.0.113.2')).totalHits).to.equal(1);
    expect((await (await store()).increment('203.0.113.1')).totalHits).to.equal(1);
  });

  it('when the window has ended then the next request starts a new one at 1', async () => {
    const s = await store(60_000);
    await s.increment('192.0.2.9');
    await s.increment('192.0.2.9');
    await (
      await stack()
    ).platform
      .knex('rate_limit_counters')
      .where({ key: `${s.prefix}192.0.2.9` })
      .update({ resetAt: new Date(Date.now() - 1000) });
    expect(await s.get('192.0.2.9')).to.equal(undefined);
    const next = await s.increment('192.0.2.9');
    expect(next.totalHits).to.equal(1);
    expect(next.resetTime!.getTime()).to.be.greaterThan(Date.now() + 50_000);
  });

  it('when a hit is taken back or the key reset then the count follows', async () => {
    const s = await store();
    await s.increment('192.0.2.10');
    await s.increment('192.0.2.10');
    await s.decrement('192.0.2.10');
    expect((await s.get('192.0.2.10'))!.totalHits).to.equal(1);
    await s.resetKey('192.0.2.10');
    expect(await s.get('192.0.2.10')).to.equal(undefined);
  });
});

describe('Postgres rate-limit store, hits taken in blocks', () => {
  async function replicas(limit: number, count = 2) {
    const prefix = `test-${crypto.randomUUID()}:`;
    const knex = (await stack()).platform.knex;
    return Array.from({ length: count }, () => {
      const s = new PostgresRateLimitStore(knex, prefix);
      s.init({ windowMs: 60_000, limit } as Options);
      return s;
    });
  }
  const allowed = (results: { totalHits: number }[], limit: number) => results.filter((r) => r.totalHits <= limit).length;

  it('when two api processes serve one client 300 requests at once with a limit of 100 then exactly 100 are let through, each hit number once', async () => {
    const [a, b] = await replicas(100);
    const results = await Promise.all(Array.from({ length: 300 }, (_, i) => (i % 2 ? a : b).increment('198.51.100.20')));
    expect(allowed(results, 100)).to.equal(100);
    const numbers = results.map((r) => r.totalHits);
    expect(new Set(numbers).size).to.equal(300);
    expect((await a.get('198.51.100.20'))!.totalHits).to.be.at.least(300);
  });

  it('when the client alternates between two api processes then the 429 falls exactly at the limit', async () => {
    const [a, b] = await replicas(100);
    const results = [];
    for (let i = 0; i < 120; i++) results.push(await (i % 2 ? a : b).increment('198.51.100.21'));
    expect(results.slice(0, 100).every((r) => r.totalHits <= 100)).to.equal(true);
    expect(results.slice(100).every((r) => r.totalHits > 100)).to.equal(true);
  });

  it('when a process answers from its block then the database is asked once per block, not once per request', async () => {
    const [a] = await replicas(10_000, 1);
    await a.increment('198.51.100.22');
    const afterFirst = (await a.get('198.51.100.22'))!.totalHits;
    expect(afterFirst).to.equal(Math.floor(10_000 / 32));
    for (let i = 0; i < 50; i++) await a.increment('198.51.100.22');
    expect((await a.get('198.51.100.22'))!.totalHits).to.equal(afterFirst);
  });

  it('when a client of two api processes is refused on one then the other refuses it too, until the window ends', async () => {
    const [a, b] = await replicas(40);
    for (let i = 0; i < 40; i++) expect((await a.increment('198.51.100.23')).totalHits).to.be.at.most(40);
    expect((await b.increment('198.51.100.23')).totalHits).to.be.greaterThan(40);
    expect((await a.increment('198.51.100.23')).totalHits).to.be.greaterThan(40);
  });
});
