// Loyalty rows -> API shapes. Times as UTC ISO strings, money in integer minor units.
import { toIso, toIsoOrNull } from '../time/iso';
import type { CardRow, PointsTransactionRow, StampRow, VoucherEventRow, VoucherRow } from './loyalty.repository';

export function cardDto(c: CardRow) {
  return {
    id: c.id,
    name: c.name,
    type: c.type,
    isActive: c.isActive,
    requiredStamps: c.requiredStamps,
    minBookingValue: c.minBookingValue,
    voucherExpiryMonths: c.voucherExpiryMonths,
    rewardType: c.rewardType,
    rewardValue: c.rewardValue,
    earnRate: c.earnRate,
    redeemRate: c.redeemRate,
    expiryMonths: c.expiryMonths,
    minRedemption: c.minRedemption,
    serviceIds: c.serviceIds ?? [],
    createdAt: toIso(c.createdAt),
    updatedAt: toIso(c.updatedAt),
  };
}
export type CardDto = ReturnType<typeof cardDto>;

export function voucherDto(v: VoucherRow) {
  return {
    id: v.id,
    tenantId: v.tenantId,
    loyaltyCardId: v.loyaltyCardId,
    tenantCustomerId: v.tenantCustomerId,
    code: v.code,
    rewardType: v.rewardType,
    rewardValue: v.rewardValue,
    status: v.status,
    issuedAt: toIso(v.issuedAt),
    expiresAt: toIsoOrNull(v.expiresAt),
    issuedFromCycleNumber: v.issuedFromCycleNumber,
    reservedBookingId: v.reservedBookingId,
    reservedAt: toIsoOrNull(v.reservedAt),
    redeemedBookingId: v.redeemedBookingId,
    redeemedAt: toIsoOrNull(v.redeemedAt),
    discountApplied: v.discountApplied,
    cancelledAt: toIsoOrNull(v.cancelledAt),
    cancelledReason: v.cancelledReason,
    createdAt: toIso(v.createdAt),
    updatedAt: toIso(v.updatedAt),
  };
}
export type VoucherDto = ReturnType<typeof voucherDto>;

export function voucherEventDto(e: VoucherEventRow) {
  return {
    action: e.action,
    fromStatus: e.fromStatus,
    toStatus: e.toStatus,
    bookingId: e.bookingId,
    actorUserId: e.actorUserId,
    actorRole: e.actorRole,
    reason: e.reason,
    createdAt: toIso(e.createdAt),
  };
}

export function stampDto(s: StampRow) {
  return { id: s.id, bookingId: s.bookingId, stampNumber: s.stampNumber, cycleNumber: s.cycleNumber, createdAt: toIso(s.createdAt) };
}

export function pointsTransactionDto(t: PointsTransactionRow) {
  return {
    id: t.id,
    type: t.type,
    points: t.points,
    balanceAfter: t.balanceAfter,
    bookingId: t.bookingId,
    reason: t.reason,
    actorUserId: t.actorUserId,
    expiresAt: toIsoOrNull(t.expiresAt),
    createdAt: toIso(t.createdAt),
  };
}
