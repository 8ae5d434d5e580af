// Points expiry (docs/rules/loyalty.md#points-expiry): an EARN's points leave the balance at its expiresAt, written off
// lazily with one EXPIRE transaction (first-in-first-out) when the balance is read or changed.
import { expect } from 'chai';
import { call } from '../../support/http';
import { knex } from '../../support/booking-fixtures';
import { addCustomer, bookOk, bookingSalon, complete, processed, type BookingSalon, type LoyaltyCustomer } from '../../support/loyalty';

const POINTS = { name: 'Poeng', type: 'POINTS_BASED', earnRate: 1, redeemRate: 10, expiryMonths: 12, minRedemption: 0 };

async function earnByBooking(s: BookingSalon, c: LoyaltyCustomer): Promise<string> {
  const b = await bookOk(s, c);
  await complete(s, b.id);
  await processed(b.id);
  return b.id;
}

/** Moves the EARN of the booking to expire one second ago, as if its expiryMonths had passed. */
async function expireEarnOf(bookingId: string): Promise<void> {
  const moved = await (
    await knex()
  )('loyalty_points_transactions')
    .where({ bookingId, type: 'EARN' })
    .update({ expiresAt: new Date(Date.now() - 1000) });
  expect(moved).to.equal(1);
}

async function setup() {
  const s = await bookingSalon();
  const res = await call('post', '/loyalty-cards', s.owner.token, POINTS);
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  const card = res.body.data as { id: string };
  const c = await addCustomer(s);
  return { s, card, c };
}

async function expireRows(cardId: string, tenantCustomerId: string) {
  return (await knex())('loyalty_points_transactions').where({ loyaltyCardId: cardId, tenantCustomerId, type: 'EXPIRE' });
}

describe('loyalty points expiry', () => {
  it('when earned points pass expiresAt then reading the points writes off the unspent rest once and redeeming more than the unexpired balance is 422', async () => {
    const { s, card, c } = await setup();
    const bookingId = await earnByBooking(s, c);
    const pointsUrl = `/loyalty-cards/${card.id}/points/${c.tenantCustomerId}`;
    expect((await call('get', pointsUrl, s.staff[0].user.token)).body.data.balance).to.equal(500);
    const spent = await call('post', `/loyalty-cards/${card.id}/redeem-points`, s.staff[0].user.token, { tenantCustomerId: c.tenantCustomerId, points: 200 });
    expect(spent.status, JSON.stringify(spent.body)).to.equal(200);
    const bonus = await call('post', `/loyalty-cards/${card.id}/adjust-points`, s.owner.token, {
      tenantCustomerId: c.tenantCustomerId,
      points: 30,
      reason: 'bonus',
    });
    expect(bonus.body.data.balance).to.equal(330);
    await expireEarnOf(bookingId);

    const read = await call('get', pointsUrl, s.staff[0].user.token);
    expect(read.status, JSON.stringify(read.body)).to.equal(200);
    expect(read.body.data).to.include({ balance: 30, balanceValue: 300 });
    const expired = read.body.data.transactions.filter((t: { type: string }) => t.type === 'EXPIRE');
    expect(expired).to.have.length(1);
    expect(expired[0]).to.include({ type: 'EXPIRE', points: -300, balanceAfter: 30, bookingId: null, actorUserId: null, expiresAt: null });

    const again = await call('get', pointsUrl, s.owner.token);
    expect(again.body.data.balance).to.equal(30);
    expect(again.body.data.transactions.filter((t: { type: string }) => t.type === 'EXPIRE')).to.have.length(1);
    expect(await expireRows(card.id, c.tenantCustomerId)).to.have.length(1);

    const over = await call('post', `/loyalty-cards/${card.id}/redeem-points`, s.staff[0].user.token, { tenantCustomerId: c.tenantCustomerId, points: 31 });
    expect(over.status).to.equal(422);
    expect(over.body.error.code).to.equal('LOYALTY_POINTS_INSUFFICIENT');
    const all = await call('post', `/loyalty-cards/${card.id}/redeem-points`, s.staff[0].user.token, { tenantCustomerId: c.tenantCustomerId, points: 30 });
    expect(all.status).to.equal(200);
    expect(all.body.data.balance).to.equal(0);
    const balance = await (await knex())('loyalty_points_balances').where({ loyaltyCardId: card.id, tenantCustomerId: c.tenantCustomerId }).first('balance');
    expect(balance.balance).to.equal(0);
  });

  it('when expired points were never read then a redemption counts only the unexpired points (422), and the overview and the next earn write them off first', async () => {
    const { s, card, c } = await setup();
    const first = await earnByBooking(s, c);
    await expireEarnOf(first);

    const over = await call('post', `/loyalty-cards/${card.id}/redeem-points`, s.staff[0].user.token, { tenantCustomerId: c.tenantCustomerId, points: 1 });
    expect(over.status).to.equal(422);
    expect(over.body.error.code).to.equal('LOYALTY_POINTS_INSUFFICIENT');

    const overview = await call('get', `/customers/${c.tenantCustomerId}/loyalty`, s.staff[0].user.token);
    expect(overview.status, JSON.stringify(overview.body)).to.equal(200);
    const onCard = overview.body.data.cards.find((p: { card: { id: string } }) => p.card.id === card.id);
    expect(onCard.pointsBalance).to.deep.equal({ balance: 0, value: 0 });
    expect(await expireRows(card.id, c.tenantCustomerId)).to.have.length(1);

    await earnByBooking(s, c);
    const read = await call('get', `/loyalty-cards/${card.id}/points/${c.tenantCustomerId}`, s.staff[0].user.token);
    expect(read.body.data.balance).to.equal(500);
    expect(read.body.data.transactions.map((t: { type: string; points: number; balanceAfter: number }) => [t.type, t.points, t.balanceAfter])).to.deep.equal([
      ['EARN', 500, 500],
      ['EXPIRE', -500, 0],
      ['EARN', 500, 500],
    ]);
  });

  it('when an earn lot expires while the completion earns again then the write-off comes before the new points', async () => {
    const { s, card, c } = await setup();
    const first = await earnByBooking(s, c);
    await expireEarnOf(first);
    await earnByBooking(s, c);
    const rows = await (
      await knex()
    )('loyalty_points_transactions')
      .where({ loyaltyCardId: card.id, tenantCustomerId: c.tenantCustomerId })
      .orderBy('balanceAfter');
    expect(rows.map((r: { type: string; points: number; balanceAfter: number }) => [r.type, r.points, r.balanceAfter])).to.deep.include.members([
      ['EXPIRE', -500, 0],
      ['EARN', 500, 500],
    ]);
    expect(rows.filter((r: { type: string }) => r.type === 'EXPIRE')).to.have.length(1);
    const read = await call('get', `/loyalty-cards/${card.id}/points/${c.tenantCustomerId}`, s.staff[0].user.token);
    expect(read.body.data.balance).to.equal(500);
  });
});
