import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import { Metrics } from '../../../api/ops/metrics';

/** An app whose routes answer like the booking routes, mounted at /api as the area routers are. */
function appWithBookingRoutes(metrics: Metrics) {
  const app = express();
  app.use(metrics.middleware());
  const router = express.Router();
  router.post('/bookings', (_req, res) => {
    res.status(201).end();
  });
  router.post('/bookings/walk-in', (_req, res) => {
    res.status(201).end();
  });
  router.post('/public/:slug/bookings', (_req, res) => {
    res.status(201).end();
  });
  router.post('/bookings/:id/cancel', (_req, res) => {
    res.status(200).end();
  });
  app.use('/api', router);
  return app;
}

describe('metrics: bookings_created_total', () => {
  it('counts staff, public and walk-in creations under their own channel, and nothing else', async () => {
    const metrics = new Metrics();
    const app = appWithBookingRoutes(metrics);
    await request(app).post('/api/bookings');
    await request(app).post('/api/bookings');
    await request(app).post('/api/public/salon-a/bookings');
    await request(app).post('/api/bookings/walk-in');
    await request(app).post('/api/bookings/b1/cancel');
    // every series of the counter, exactly: the cancellation counted nowhere
    const series = (await metrics.bookingsCreated.get()).values.map((v) => [v.labels.channel, v.value]);
    expect(series.sort()).to.deep.equal([
      ['PUBLIC', 1],
      ['STAFF', 2],
      ['WALK_IN', 1],
    ]);
    // and as Prometheus reads it, whole lines (a count of 20 is not a count of 2)
    const lines = (await metrics.registry.metrics()).split('\n').filter((l) => l.startsWith('bookings_created_total'));
    expect(lines.sort()).to.deep.equal([
      'bookings_created_total{channel="PUBLIC"} 1',
      'bookings_created_total{channel="STAFF"} 2',
      'bookings_created_total{channel="WALK_IN"} 1',
    ]);
  });
});
