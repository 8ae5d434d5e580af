// Loyalty cards and points (docs/rules/loyalty.md#cards, docs/rules/auth.md#access-matrix): OWNER writes, STAFF+ reads, the retired stamp redeem.
import { expect } from 'chai';
import { call } from '../../support/http';
import { addCustomer, bookingSalon, visitCard } from '../../support/loyalty';

const VISIT = { name: 'Klippekort', type: 'VISIT_BASED', requiredStamps: 10, rewardType: 'FREE_SERVICE', rewardValue: 50000 };
const POINTS = { name: 'Poeng', type: 'POINTS_BASED', earnRate: 1, redeemRate: 10, minRedemption: 50 };

describe('loyalty cards', () => {
  it('when the owner creates a visit card then every field is stored (defaults: active, every booking, vouchers never expire) and STAFF can read it', async () => {
    const s = await bookingSalon();
    const res = await call('post', '/loyalty-cards', s.owner.token, VISIT);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.data).to.include({
      name: 'Klippekort',
      type: 'VISIT_BASED',
      isActive: true,
      requiredStamps: 10,
      minBookingValue: null,
      voucherExpiryMonths: null,
      rewardType: 'FREE_SERVICE',
      rewardValue: 50000,
      earnRate: null,
    });
    expect(res.body.data.serviceIds).to.deep.equal([]);
    const read = await call('get', `/loyalty-cards/${res.body.data.id}`, s.staff[0].user.token);
    expect(read.status).to.equal(200);
    expect(read.body.data).to.deep.equal(res.body.data);
    const list = await call('get', '/loyalty-cards', s.staff[0].user.token);
    expect(list.body.meta).to.deep.equal({ total: 1, page: 1, limit: 20, totalPages: 1 });
  });

  it('when the older name requiredVisits is used then it is stored as requiredStamps', async () => {
    const s = await bookingSalon();
    const { requiredStamps: _r, ...rest } = VISIT;
    const res = await call('post', '/loyalty-cards', s.owner.token, { ...rest, requiredVisits: 4 });
    expect(res.status).to.equal(201);
    expect(res.body.data.requiredStamps).to.equal(4);
  });

  it('when a points card is created then its fields are stored (minRedemption default 0) and visit fields are refused', async () => {
    const s = await bookingSalon();
    const res = await call('post', '/loyalty-cards', s.owner.token, { name: 'P', type: 'POINTS_BASED', earnRate: 3, redeemRate: 5, expiryMonths: 24 });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.data).to.include({
      type: 'POINTS_BASED',
      earnRate: 3,
      redeemRate: 5,
      expiryMonths: 24,
      minRedemption: 0,
      requiredStamps: null,
      rewardType: null,
    });
    const mixed = await call('post', '/loyalty-cards', s.owner.token, { ...POINTS, requiredStamps: 5 });
    expect(mixed.status).to.equal(400);
    expect(mixed.body.error.details[0]).to.include({ field: 'requiredStamps' });
  });

  it('when required fields of the type are missing then 400 names them', async () => {
    const s = await bookingSalon();
    const visit = await call('post', '/loyalty-cards', s.owner.token, { name: 'x', type: 'VISIT_BASED' });
    expect(visit.status).to.equal(400);
    expect(visit.body.error.details.map((d: { field: string }) => d.field)).to.include.members(['requiredStamps', 'rewardType', 'rewardValue']);
    const points = await call('post', '/loyalty-cards', s.owner.token, { name: 'x', type: 'POINTS_BASED' });
    expect(points.body.error.details.map((d: { field: string }) => d.field)).to.include.members(['earnRate', 'redeemRate']);
    const percent = await call('post', '/loyalty-cards', s.owner.token, { ...VISIT, rewardType: 'DISCOUNT_PERCENT', rewardValue: 101 });
    expect(percent.status).to.equal(400);
    expect((await call('post', '/loyalty-cards', s.owner.token, { ...VISIT, rewardType: 'DISCOUNT_PERCENT', rewardValue: 100 })).status).to.equal(201);
  });

  it('when numbers are at their limits then they are accepted; one past, 400', async () => {
    const s = await bookingSalon();
    for (const [field, ok, bad] of [
      ['requiredStamps', 100, 101],
      ['requiredStamps', 1, 0],
      ['voucherExpiryMonths', 120, 121],
      ['voucherExpiryMonths', 1, 0],
      ['minBookingValue', 0, -1],
    ] as const) {
      expect((await call('post', '/loyalty-cards', s.owner.token, { ...VISIT, [field]: ok })).status, `${field}=${ok}`).to.equal(201);
      expect((await call('post', '/loyalty-cards', s.owner.token, { ...VISIT, [field]: bad })).status, `${field}=${bad}`).to.equal(400);
    }
    expect((await call('post', '/loyalty-cards', s.owner.token, { ...VISIT, name: 'n'.repeat(200) })).status).to.equal(201);
    expect((await call('post', '/loyalty-cards', s.owner.token, { ...VISIT, name: 'n'.repeat(201) })).status).to.equal(400);
    expect((await call('get', '/loyalty-cards?limit=100', s.owner.token)).status).to.equal(200);
    expect((await call('get', '/loyalty-cards?limit=101', s.owner.token)).status).to.equal(400);
  });

  it('when STAFF writes a card then 403; the owner patches and deletes; a deleted card is 404', async () => {
    const s = await bookingSalon();
    expect((await call('post', '/loyalty-cards', s.staff[0].user.token, VISIT)).status).to.equal(403);
    const card = await visitCard(s);
    expect((await call('patch', `/loyalty-cards/${card.id}`, s.staff[0].user.token, { name: 'x' })).status).to.equal(403);
    expect((await call('delete', `/loyalty-cards/${card.id}`, s.staff[0].user.token)).status).to.equal(403);
    const patched = await call('patch', `/loyalty-cards/${card.id}`, s.owner.token, {
      name: 'Nytt navn',
      minBookingValue: 30000,
      voucherExpiryMonths: null,
      isActive: false,
      serviceIds: [s.serviceId],
    });
    expect(patched.status).to.equal(200);
    expect(patched.body.data).to.include({ name: 'Nytt navn', minBookingValue: 30000, voucherExpiryMonths: null, isActive: false });
    expect(patched.body.data.serviceIds).to.deep.equal([s.serviceId]);
    expect((await call('patch', `/loyalty-cards/${card.id}`, s.owner.token, { earnRate: 2 })).status).to.equal(400);
    expect(
      (await call('patch', `/loyalty-cards/${card.id}`, s.owner.token, { serviceIds: ['00000000-0000-4000-8000-000000000000'] })).body.error.code,
    ).to.equal('SERVICE_NOT_FOUND');
    expect((await call('delete', `/loyalty-cards/${card.id}`, s.owner.token)).status).to.equal(204);
    const gone = await call('get', `/loyalty-cards/${card.id}`, s.owner.token);
    expect(gone.status).to.equal(404);
    expect(gone.body.error.code).to.equal('LOYALTY_CARD_NOT_FOUND');
    expect((await call('get', '/loyalty-cards', s.owner.token)).body.meta.total).to.equal(0);
  });

  it("when another salon's owner reads or writes the card then 404", async () => {
    const s = await bookingSalon();
    const other = await bookingSalon();
    const card = await visitCard(s);
    expect((await call('get', `/loyalty-cards/${card.id}`, other.owner.token)).status).to.equal(404);
    expect((await call('patch', `/loyalty-cards/${card.id}`, other.owner.token, { name: 'x' })).status).to.equal(404);
    expect((await call('delete', `/loyalty-cards/${card.id}`, other.owner.token)).status).to.equal(404);
  });

  it('when the retired POST /loyalty-cards/:id/redeem is called then 410 points to vouchers', async () => {
    const s = await bookingSalon();
    const card = await visitCard(s);
    const res = await call('post', `/loyalty-cards/${card.id}/redeem`, s.staff[0].user.token, {});
    expect(res.status).to.equal(410);
    expect(res.body.error.code).to.equal('LOYALTY_STAMP_REDEEM_REMOVED');
    expect(res.body.error.message).to.contain('/loyalty-vouchers');
  });
});

describe('loyalty points', () => {
  async function pointsSetup() {
    const s = await bookingSalon();
    const card = (await call('post', '/loyalty-cards', s.owner.token, POINTS)).body.data as { id: string };
    const c = await addCustomer(s);
    return { s, card, c };
  }

  it('when the owner adjusts points with a reason then the balance and a transaction follow; STAFF may not adjust; no reason is 400', async () => {
    const { s, card, c } = await pointsSetup();
    const res = await call('post', `/loyalty-cards/${card.id}/adjust-points`, s.owner.token, {
      tenantCustomerId: c.tenantCustomerId,
      points: 120,
      reason: 'velkomstbonus',
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data).to.include({ balance: 120 });
    expect(res.body.data.transaction).to.include({ type: 'ADJUST', points: 120, balanceAfter: 120, reason: 'velkomstbonus', actorUserId: s.owner.id });
    expect(
      (await call('post', `/loyalty-cards/${card.id}/adjust-points`, s.staff[0].user.token, { tenantCustomerId: c.tenantCustomerId, points: 1, reason: 'x' }))
        .status,
    ).to.equal(403);
    expect((await call('post', `/loyalty-cards/${card.id}/adjust-points`, s.owner.token, { tenantCustomerId: c.tenantCustomerId, points: 1 })).status).to.equal(
      400,
    );
    expect(
      (await call('post', `/loyalty-cards/${card.id}/adjust-points`, s.owner.token, { tenantCustomerId: c.tenantCustomerId, points: 0, reason: 'x' })).status,
    ).to.equal(400);
    const below = await call('post', `/loyalty-cards/${card.id}/adjust-points`, s.owner.token, {
      tenantCustomerId: c.tenantCustomerId,
      points: -121,
      reason: 'x',
    });
    expect(below.status).to.equal(422);
    expect(below.body.error.code).to.equal('LOYALTY_POINTS_INSUFFICIENT');
    expect(
      (
        await call('post', `/loyalty-cards/${card.id}/adjust-points`, s.owner.token, {
          tenantCustomerId: c.tenantCustomerId,
          points: -120,
          reason: 'nullstill',
        })
      ).body.data.balance,
    ).to.equal(0);
  });

  it('when staff redeem points then at least minRedemption and at most the balance are spent, and the discount value is answered', async () => {
    const { s, card, c } = await pointsSetup();
    await call('post', `/loyalty-cards/${card.id}/adjust-points`, s.owner.token, { tenantCustomerId: c.tenantCustomerId, points: 80, reason: 'start' });
    const under = await call('post', `/loyalty-cards/${card.id}/redeem-points`, s.staff[0].user.token, { tenantCustomerId: c.tenantCustomerId, points: 49 });
    expect(under.status).to.equal(422);
    expect(under.body.error.code).to.equal('LOYALTY_POINTS_BELOW_MINIMUM');
    const atMin = await call('post', `/loyalty-cards/${card.id}/redeem-points`, s.staff[0].user.token, { tenantCustomerId: c.tenantCustomerId, points: 50 });
    expect(atMin.status, JSON.stringify(atMin.body)).to.equal(200);
    expect(atMin.body.data).to.include({ balance: 30, discountValue: 500 });
    expect(atMin.body.data.transaction).to.include({ type: 'REDEEM', points: -50, balanceAfter: 30 });
    const over = await call('post', `/loyalty-cards/${card.id}/redeem-points`, s.staff[0].user.token, { tenantCustomerId: c.tenantCustomerId, points: 50 });
    expect(over.body.error.code).to.equal('LOYALTY_POINTS_INSUFFICIENT');
    const read = await call('get', `/loyalty-cards/${card.id}/points/${c.tenantCustomerId}`, s.staff[0].user.token);
    expect(read.body.data).to.include({ balance: 30, balanceValue: 300 });
    expect(read.body.data.transactions.map((t: { type: string }) => t.type)).to.deep.equal(['REDEEM', 'ADJUST']);
  });

  it('when points routes get a visit card, an unknown customer or a concurrent double spend then they answer per rule and the balance never goes negative', async () => {
    const { s, card, c } = await pointsSetup();
    const visit = await visitCard(s);
    expect((await call('get', `/loyalty-cards/${visit.id}/points/${c.tenantCustomerId}`, s.owner.token)).body.error.code).to.equal('LOYALTY_CARD_WRONG_TYPE');
    expect((await call('get', `/loyalty-cards/${card.id}/stamps/${c.tenantCustomerId}`, s.owner.token)).body.error.code).to.equal('LOYALTY_CARD_WRONG_TYPE');
    expect((await call('get', `/loyalty-cards/${card.id}/points/00000000-0000-4000-8000-000000000000`, s.owner.token)).body.error.code).to.equal(
      'TENANT_CUSTOMER_NOT_FOUND',
    );
    await call('post', `/loyalty-cards/${card.id}/adjust-points`, s.owner.token, { tenantCustomerId: c.tenantCustomerId, points: 100, reason: 'start' });
    const spends = await Promise.all(
      [1, 2, 3].map(() => call('post', `/loyalty-cards/${card.id}/redeem-points`, s.staff[0].user.token, { tenantCustomerId: c.tenantCustomerId, points: 60 })),
    );
    expect(spends.filter((r) => r.status === 200)).to.have.length(1);
    expect((await call('get', `/loyalty-cards/${card.id}/points/${c.tenantCustomerId}`, s.owner.token)).body.data.balance).to.equal(40);
  });
});
