import { expect } from 'chai';
import { pointsDueToExpire, type PointsLedgerEntry } from '../../../domain/loyalty/points-expiry.rules';

const T0 = Date.parse('2026-01-10T12:00:00.000Z');
const day = 24 * 3600 * 1000;
const at = (days: number, ms = 0) => new Date(T0 + days * day + ms);

const earn = (points: number, createdDay: number, expiresDay: number | null): PointsLedgerEntry => ({
  type: 'EARN',
  points,
  createdAt: at(createdDay),
  expiresAt: expiresDay === null ? null : at(expiresDay),
});
const redeem = (points: number, createdDay: number): PointsLedgerEntry => ({ type: 'REDEEM', points: -points, createdAt: at(createdDay), expiresAt: null });
const adjust = (points: number, createdDay: number): PointsLedgerEntry => ({ type: 'ADJUST', points, createdAt: at(createdDay), expiresAt: null });
const expire = (points: number, createdDay: number): PointsLedgerEntry => ({ type: 'EXPIRE', points: -points, createdAt: at(createdDay), expiresAt: null });

describe('points expiry rules', () => {
  const cases: { name: string; txs: PointsLedgerEntry[]; now: Date; due: number }[] = [
    { name: 'no transactions', txs: [], now: at(400), due: 0 },
    { name: 'one lot one ms before expiresAt', txs: [earn(100, 0, 30)], now: at(30, -1), due: 0 },
    { name: 'one lot at expiresAt', txs: [earn(100, 0, 30)], now: at(30), due: 100 },
    { name: 'one lot one ms past expiresAt', txs: [earn(100, 0, 30)], now: at(30, 1), due: 100 },
    { name: 'a lot without expiresAt (card without expiryMonths)', txs: [earn(100, 0, null)], now: at(4000), due: 0 },
    { name: 'partial redemption before expiry', txs: [earn(100, 0, 30), redeem(40, 10)], now: at(31), due: 60 },
    { name: 'full redemption before expiry', txs: [earn(100, 0, 30), redeem(100, 10)], now: at(31), due: 0 },
    { name: 'several lots, only the oldest expired', txs: [earn(100, 0, 30), earn(50, 20, 50)], now: at(31), due: 100 },
    { name: 'several lots, all expired', txs: [earn(100, 0, 30), earn(50, 20, 50)], now: at(50), due: 150 },
    { name: 'a redemption uses the oldest lot first', txs: [earn(100, 0, 30), earn(50, 20, 50), redeem(120, 25)], now: at(50), due: 30 },
    { name: 'a redemption spanning lots leaves the newer lot partly', txs: [earn(100, 0, 30), earn(50, 20, 50), redeem(120, 25)], now: at(31), due: 0 },
    { name: 'a negative adjustment consumes like a redemption', txs: [earn(100, 0, 30), earn(50, 20, 50), adjust(-30, 25)], now: at(31), due: 70 },
    {
      name: 'a positive adjustment never expires but is consumed first-in-first-out',
      txs: [adjust(70, 0), earn(100, 1, 30), redeem(50, 2)],
      now: at(400),
      due: 100,
    },
    { name: 'a positive adjustment after the earn lot never expires', txs: [earn(100, 0, 30), adjust(70, 1), redeem(50, 2)], now: at(400), due: 50 },
    {
      name: 'a redemption after the oldest lot expired skips it',
      txs: [earn(100, 0, 30), earn(50, 20, 50), expire(100, 31), redeem(20, 31)],
      now: at(40),
      due: 0,
    },
    {
      name: 'an unwritten-off expired lot is not used by a later redemption while others remain',
      txs: [earn(100, 0, 30), earn(50, 20, 50), redeem(20, 35)],
      now: at(40),
      due: 100,
    },
    { name: 'points already written off are not counted twice', txs: [earn(100, 0, 30), expire(100, 31)], now: at(60), due: 0 },
    { name: 'a write-off then a later lot expiring', txs: [earn(100, 0, 30), earn(50, 20, 50), expire(100, 31)], now: at(50), due: 50 },
    {
      name: 'the write-off and a redemption in the same instant, redemption listed first',
      txs: [earn(100, 0, 30), earn(50, 20, 50), redeem(50, 31), expire(100, 31)],
      now: at(60),
      due: 0,
    },
    {
      name: 'the write-off and a redemption in the same instant, write-off listed first',
      txs: [earn(100, 0, 30), earn(50, 20, 50), expire(100, 31), redeem(50, 31)],
      now: at(60),
      due: 0,
    },
    {
      name: 'a redemption with only expired points left (history before write-offs) takes them',
      txs: [earn(100, 0, 30), redeem(60, 40)],
      now: at(41),
      due: 40,
    },
  ];
  for (const c of cases) {
    it(`when ${c.name} then ${c.due} points are due`, () => expect(pointsDueToExpire(c.txs, c.now)).to.equal(c.due));
  }
});
