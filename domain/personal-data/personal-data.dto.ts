// Rows -> the API's personal-data shapes (openapi.yaml: PersonalDataExport, CustomerErasure, ...).
// Times go out as UTC ISO strings, money in minor units.
import { toIso, toIsoOrNull } from '../time/iso';
import { messageCategory, type MessageCategory } from '../notifications/message-category.rules';
import type { ErasureRow, ExportRecordRow, RetentionSweepRow } from './personal-data.repository';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Plain = Record<string, any>;

export interface PersonalDataMessageDto {
  about: 'BOOKING' | 'VOUCHER' | 'WAITLIST' | 'SERIES' | 'NUDGE';
  aboutId: string;
  channel: string;
  kind: string;
  category: MessageCategory;
  sentAt: string;
  to: string | null;
  text: string | null;
}

export interface SalonPersonalDataDto {
  salon: { id: string; name: string; slug: string };
  customer: {
    id: string;
    name: string;
    phone: string | null;
    email: string | null;
    notes: string | null;
    acceptsMarketing: boolean;
    createdAt: string;
    erasedAt: string | null;
  } | null;
  salonRecord: {
    tags: string[];
    notes: string | null;
    visitCount: number;
    firstVisit: string | null;
    lastVisit: string | null;
    totalSpent: number;
    visits: { bookingId: string; amount: number; visitedAt: string }[];
  } | null;
  bookings: {
    id: string;
    status: string;
    source: string;
    startTime: string;
    endTime: string;
    contact: { name: string | null; phone: string | null; email: string | null };
    notes: string | null;
    totalAmount: number;
    discountAmount: number;
    cancellationFee: number;
    depositStatus: string | null;
    cancelledAt: string | null;
    cancelledBy: string | null;
    cancelReason: string | null;
    promisedAt: string | null;
    createdAt: string;
    items: { service: string | null; staff: string | null; startTime: string; endTime: string; price: number }[];
  }[];
  payments: {
    id: string;
    bookingId: string;
    intent: string;
    status: string;
    amount: number;
    capturedAmount: number;
    refundedAmount: number;
    currency: string;
    provider: string | null;
    createdAt: string;
    capturedAt: string | null;
    refunds: { id: string; amount: number; status: string; createdAt: string; completedAt: string | null }[];
  }[];
  loyalty: {
    stamps: { card: string; bookingId: string; stampNumber: number; cycleNumber: number; createdAt: string }[];
    vouchers: {
      code: string;
      rewardType: string;
      rewardValue: number;
      status: string;
      issuedAt: string;
      expiresAt: string | null;
      redeemedAt: string | null;
    }[];
    points: { card: string; balance: number }[];
    pointsTransactions: { card: string; type: string; points: number; balanceAfter: number; createdAt: string }[];
  };
  messages: PersonalDataMessageDto[];
  replies: { receivedAt: string; text: string; outcome: string; answer: string; answeredAt: string | null }[];
  waitlistEntries: {
    id: string;
    status: string;
    fromDate: string;
    toDate: string;
    earliestTime: string | null;
    latestTime: string | null;
    contact: { name: string; phone: string; email: string | null };
    createdAt: string;
  }[];
  series: {
    id: string;
    status: string;
    intervalWeeks: number;
    occurrenceCount: number | null;
    untilDate: string | null;
    createdAt: string;
    endedAt: string | null;
  }[];
  rebookingNudges: { id: string; status: string; dueAt: string | null; sentAt: string | null }[];
  consents: { granted: boolean; source: string; recordedAt: string }[];
  erasure: ErasureDto | null;
}

export interface PersonalDataExportDto {
  exportedAt: string;
  requestedBy: 'SALON' | 'CUSTOMER';
  account: {
    id: string;
    name: string | null;
    email: string | null;
    emailVerified: boolean;
    phone: string | null;
    phoneVerifiedAt: string | null;
    createdAt: string;
    lastLoginAt: string | null;
    signIns: { issuer: string; email: string | null; lastUsedAt: string | null }[];
  } | null;
  salons: SalonPersonalDataDto[];
}

export interface ErasureDto {
  id: string;
  status: 'REQUESTED' | 'COMPLETED';
  requestedBy: 'SALON' | 'CUSTOMER';
  requestedAt: string;
  completedAt: string | null;
  outcome: Record<string, unknown>;
}

export function erasureDto(e: ErasureRow): ErasureDto {
  return {
    id: e.id,
    status: e.status,
    requestedBy: e.requestedBy,
    requestedAt: toIso(e.requestedAt),
    completedAt: toIsoOrNull(e.completedAt),
    outcome: e.outcome ?? {},
  };
}

export function exportRecordDto(r: ExportRecordRow) {
  return {
    id: r.id,
    customerId: r.customerId,
    requestedByUserId: r.requestedByUserId,
    requestedByRole: r.requestedByRole,
    format: r.format,
    createdAt: toIso(r.createdAt),
  };
}

export function retentionSweepDto(s: RetentionSweepRow) {
  return { id: s.id, sweptAt: toIso(s.sweptAt), retentionMonths: s.retentionMonths, pseudonymised: s.pseudonymised, accountingRemoved: s.accountingRemoved };
}

export function accountDocument(a: Plain, identities: Plain[]): NonNullable<PersonalDataExportDto['account']> {
  return {
    id: a.id,
    name: a.name ?? null,
    email: a.email ?? null,
    emailVerified: !!a.emailVerified,
    phone: a.phone ?? null,
    phoneVerifiedAt: toIsoOrNull(a.phoneVerifiedAt),
    createdAt: toIso(a.createdAt),
    lastLoginAt: toIsoOrNull(a.lastLoginAt),
    signIns: identities.map((i) => ({ issuer: i.issuer, email: i.email ?? null, lastUsedAt: toIsoOrNull(i.lastUsedAt) })),
  };
}

const money = (v: unknown) => Number(v ?? 0);

export interface SalonData {
  salon: { id: string; name: string; slug: string };
  customer: Plain | undefined;
  record: Plain | undefined;
  visits: Plain[];
  bookings: Plain[];
  items: Plain[];
  payments: Plain[];
  refunds: Plain[];
  loyalty: { stamps: Plain[]; vouchers: Plain[]; balances: Plain[]; transactions: Plain[] };
  entries: Plain[];
  series: Plain[];
  nudges: Plain[];
  messages: Plain[];
  replies: Plain[];
  consents: Plain[];
  erasure: ErasureRow | undefined;
}

export function salonDocument(d: SalonData): SalonPersonalDataDto {
  const c = d.customer;
  return {
    salon: { id: d.salon.id, name: d.salon.name, slug: d.salon.slug },
    customer: c
      ? {
          id: c.id,
          name: c.name,
          phone: c.phone,
          email: c.email,
          notes: c.notes,
          acceptsMarketing: !!c.acceptsRebookingNudges,
          createdAt: toIso(c.createdAt),
          erasedAt: toIsoOrNull(c.erasedAt),
        }
      : null,
    salonRecord: d.record
      ? {
          tags: d.record.tags ?? [],
          notes: d.record.notes,
          visitCount: d.record.visitCount,
          firstVisit: toIsoOrNull(d.record.firstVisit),
          lastVisit: toIsoOrNull(d.record.lastVisit),
          totalSpent: money(d.record.totalSpent),
          visits: d.visits.map((v) => ({ bookingId: v.bookingId, amount: money(v.amount), visitedAt: toIso(v.visitedAt) })),
        }
      : null,
    bookings: d.bookings.map((b) => ({
      id: b.id,
      status: b.status,
      source: b.source,
      startTime: toIso(b.startTime),
      endTime: toIso(b.endTime),
      contact: { name: b.contactName, phone: b.contactPhone, email: b.contactEmail },
      notes: b.notes,
      totalAmount: b.totalAmount,
      discountAmount: b.discountAmount,
      cancellationFee: b.cancellationFee,
      depositStatus: b.depositStatus,
      cancelledAt: toIsoOrNull(b.cancelledAt),
      cancelledBy: b.cancelledBy,
      cancelReason: b.cancelReason,
      promisedAt: toIsoOrNull(b.promisedAt),
      createdAt: toIso(b.createdAt),
      items: d.items
        .filter((i) => i.bookingId === b.id)
        .map((i) => ({ service: i.serviceName ?? null, staff: i.staffName ?? null, startTime: toIso(i.startTime), endTime: toIso(i.endTime), price: i.price })),
    })),
    payments: d.payments.map((p) => ({
      id: p.id,
      bookingId: p.bookingId,
      intent: p.intent,
      status: p.status,
      amount: p.amount,
      capturedAmount: p.capturedAmount,
      refundedAmount: p.refundedAmount,
      currency: p.currency,
      provider: p.provider,
      createdAt: toIso(p.createdAt),
      capturedAt: toIsoOrNull(p.capturedAt),
      refunds: d.refunds
        .filter((r) => r.paymentId === p.id)
        .map((r) => ({ id: r.id, amount: r.amount, status: r.status, createdAt: toIso(r.createdAt), completedAt: toIsoOrNull(r.completedAt) })),
    })),
    loyalty: {
      stamps: d.loyalty.stamps.map((s) => ({
        card: s.cardName,
        bookingId: s.bookingId,
        stampNumber: s.stampNumber,
        cycleNumber: s.cycleNumber,
        createdAt: toIso(s.createdAt),
      })),
      vouchers: d.loyalty.vouchers.map((v) => ({
        code: v.code,
        rewardType: v.rewardType,
        rewardValue: v.rewardValue,
        status: v.status,
        issuedAt: toIso(v.issuedAt),
        expiresAt: toIsoOrNull(v.expiresAt),
        redeemedAt: toIsoOrNull(v.redeemedAt),
      })),
      points: d.loyalty.balances.map((b) => ({ card: b.cardName, balance: b.balance })),
      pointsTransactions: d.loyalty.transactions.map((t) => ({
        card: t.cardName,
        type: t.type,
        points: t.points,
        balanceAfter: t.balanceAfter,
        createdAt: toIso(t.createdAt),
      })),
    },
    messages: d.messages.map((m) => ({
      about: m.about,
      aboutId: m.aboutId,
      channel: m.channel,
      kind: m.kind,
      category: messageCategory(m.kind),
      sentAt: toIso(m.sentAt),
      to: m.sentTo ?? null,
      text: m.text ?? null,
    })),
    replies: d.replies.map((r) => ({
      receivedAt: toIso(r.receivedAt),
      text: r.text,
      outcome: r.outcome,
      answer: r.answer,
      answeredAt: toIsoOrNull(r.answeredAt),
    })),
    waitlistEntries: d.entries.map((e) => ({
      id: e.id,
      status: e.status,
      fromDate: e.fromDate,
      toDate: e.toDate,
      earliestTime: e.earliestTime,
      latestTime: e.latestTime,
      contact: { name: e.contactName, phone: e.contactPhone, email: e.contactEmail },
      createdAt: toIso(e.createdAt),
    })),
    series: d.series.map((s) => ({
      id: s.id,
      status: s.status,
      intervalWeeks: s.intervalWeeks,
      occurrenceCount: s.occurrenceCount,
      untilDate: s.untilDate,
      createdAt: toIso(s.createdAt),
      endedAt: toIsoOrNull(s.endedAt),
    })),
    rebookingNudges: d.nudges.map((n) => ({ id: n.id, status: n.status, dueAt: toIsoOrNull(n.dueAt), sentAt: toIsoOrNull(n.sentAt) })),
    consents: d.consents.map((c) => ({ granted: c.granted, source: c.source, recordedAt: toIso(c.recordedAt) })),
    erasure: d.erasure ? erasureDto(d.erasure) : null,
  };
}
