import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import { Metrics } from '../../../api/ops/metrics';

/** An app whose routes answer like the booking routes, mounted at /api as the area routers are. */
function appWithBookingRoutes(metrics: Metrics) {
  const app = express();
  app.use(metrics.middleware());
  const router = express.Router();
  router.post('/bookings', (_req, res) => { res.status(201).end(); });
  router.post('/bookings/walk-in', (_req, res) => { res.status(201).end(); });
  router.post('/public/:slug/bookings', (_req, res) => { res.status(201).end(); });
  router.post('/bookings/:id/cancel', (_req, res) => { res.status(200).end(); });
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
    const text = await metrics.registry.metrics();
    expect(text).to.match(/bookings_created_total\{channel="STAFF"\} 2/);
    expect(text).to.match(/bookings_created_total\{channel="PUBLIC"\} 1/);
    expect(text).to.match(/bookings_created_total\{channel="WALK_IN"\} 1/);
  });
});
