// Loyalty cards (docs/rules/loyalty.md#cards): OWNER writes, STAFF+ reads. A VISIT_BASED card needs
// requiredStamps (older name requiredVisits), a reward type and value; minBookingValue null = every
// booking qualifies, voucherExpiryMonths null = vouchers never expire. A POINTS_BASED card needs
// earnRate and redeemRate; expiryMonths (null: points never expire) and minRedemption (default 0).
// Fields of the other card type are refused (400). Deleting a card stops it earning; its stamps,
// vouchers and points stay for audit, and issued vouchers can still be used.
import type { Db } from '../../db/db-handle';
import type { PageQuery, PageResult } from '../../db/paginate';
import { errors, type ErrorDetail } from '../errors';
import type { LoyaltyCardType, RewardType } from './loyalty.rules';
import * as repo from './loyalty.repository';
import { cardDto, type CardDto } from './loyalty.dto';
import { findServicesByIds } from '../catalogue/catalogue.repository';

export interface CardInput {
  name?: string;
  type?: LoyaltyCardType;
  isActive?: boolean;
  requiredStamps?: number;
  requiredVisits?: number;
  minBookingValue?: number | null;
  voucherExpiryMonths?: number | null;
  rewardType?: RewardType;
  rewardValue?: number;
  earnRate?: number;
  redeemRate?: number;
  expiryMonths?: number | null;
  minRedemption?: number;
  serviceIds?: string[];
}

const VISIT_FIELDS = ['requiredStamps', 'minBookingValue', 'voucherExpiryMonths', 'rewardType', 'rewardValue'] as const;
const POINTS_FIELDS = ['earnRate', 'redeemRate', 'expiryMonths', 'minRedemption'] as const;

function invalid(details: ErrorDetail[]): never {
  throw errors.validation('Request validation failed', details);
}

/** The stored fields for `input` on a card of `type`, checked against the merged result `merged`. */
function fieldsFor(type: LoyaltyCardType, input: CardInput, merged: repo.CardFields): repo.CardFields {
  const details: ErrorDetail[] = [];
  if (input.requiredVisits !== undefined && input.requiredStamps !== undefined && input.requiredVisits !== input.requiredStamps) {
    details.push({ field: 'requiredVisits', message: 'give requiredStamps or its older name requiredVisits, not both' });
  }
  const foreign = type === 'VISIT_BASED' ? POINTS_FIELDS : [...VISIT_FIELDS, 'requiredVisits' as const];
  for (const f of foreign) if (input[f] !== undefined) details.push({ field: f, message: `not a field of a ${type} card` });
  if (type === 'VISIT_BASED') {
    if (!merged.requiredStamps) details.push({ field: 'requiredStamps', message: 'is required for a VISIT_BASED card' });
    if (!merged.rewardType) details.push({ field: 'rewardType', message: 'is required for a VISIT_BASED card' });
    if (!merged.rewardValue) details.push({ field: 'rewardValue', message: 'is required for a VISIT_BASED card' });
    if (merged.rewardType === 'DISCOUNT_PERCENT' && (merged.rewardValue ?? 0) > 100)
      details.push({ field: 'rewardValue', message: 'a percentage is at most 100' });
  } else {
    if (!merged.earnRate) details.push({ field: 'earnRate', message: 'is required for a POINTS_BASED card' });
    if (!merged.redeemRate) details.push({ field: 'redeemRate', message: 'is required for a POINTS_BASED card' });
  }
  if (details.length) invalid(details);
  const fields: repo.CardFields = {};
  if (input.name !== undefined) fields.name = input.name.trim();
  if (input.isActive !== undefined) fields.isActive = input.isActive;
  if (input.serviceIds !== undefined) fields.serviceIds = [...new Set(input.serviceIds)];
  const required = input.requiredStamps ?? input.requiredVisits;
  if (required !== undefined) fields.requiredStamps = required;
  for (const f of ['minBookingValue', 'voucherExpiryMonths', 'rewardType', 'rewardValue', 'earnRate', 'redeemRate', 'expiryMonths', 'minRedemption'] as const) {
    if (input[f] !== undefined) (fields as Record<string, unknown>)[f] = input[f];
  }
  return fields;
}

async function assertServicesExist(db: Db, tenantId: string, ids: string[] | undefined): Promise<void> {
  if (!ids?.length) return;
  const unique = [...new Set(ids)];
  if ((await findServicesByIds(db, tenantId, unique)).length !== unique.length) throw errors.notFound('service');
}

export async function createCard(db: Db, tenantId: string, input: CardInput): Promise<CardDto> {
  const type = input.type!;
  const merged: repo.CardFields = { ...input, requiredStamps: input.requiredStamps ?? input.requiredVisits };
  const fields = fieldsFor(type, input, merged);
  if (type === 'POINTS_BASED' && fields.minRedemption === undefined) fields.minRedemption = 0;
  await assertServicesExist(db, tenantId, input.serviceIds);
  return cardDto(await repo.insertCard(db, tenantId, { ...fields, type }));
}

async function existingCard(db: Db, tenantId: string, id: string): Promise<repo.CardRow> {
  const card = await repo.findCard(db, tenantId, id);
  if (!card) throw errors.notFound('loyaltyCard');
  return card;
}

export async function getCard(db: Db, tenantId: string, id: string): Promise<CardDto> {
  return cardDto(await existingCard(db, tenantId, id));
}

export async function listCards(
  db: Db,
  tenantId: string,
  query: PageQuery & { type?: LoyaltyCardType; isActive?: boolean | string },
): Promise<PageResult<CardDto>> {
  const isActive = query.isActive === undefined ? undefined : query.isActive === true || query.isActive === 'true';
  const page = await repo.pageOfCards(db, tenantId, { type: query.type, isActive }, { page: Number(query.page ?? 1), limit: Number(query.limit ?? 20) });
  return { ...page, rows: page.rows.map(cardDto) };
}

/** A changed requiredStamps applies to the customers' current counts from their next stamp on. */
export async function updateCard(db: Db, tenantId: string, id: string, input: CardInput): Promise<CardDto> {
  return db.transaction(async (trx) => {
    const card = await existingCard(trx, tenantId, id);
    const patch = { ...input, requiredStamps: input.requiredStamps ?? input.requiredVisits };
    const merged = { ...card, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) } as repo.CardFields;
    const fields = fieldsFor(card.type, input, merged);
    await assertServicesExist(trx, tenantId, input.serviceIds);
    if (Object.keys(fields).length) await repo.updateCard(trx, tenantId, id, fields);
    return cardDto(await existingCard(trx, tenantId, id));
  });
}

export async function deleteCard(db: Db, tenantId: string, id: string): Promise<void> {
  if (!(await repo.softDeleteCard(db, tenantId, id))) throw errors.notFound('loyaltyCard');
}

export async function existingCardOfType(db: Db, tenantId: string, id: string, type: LoyaltyCardType): Promise<repo.CardRow> {
  const card = await existingCard(db, tenantId, id);
  if (card.type !== type) throw errors.unprocessable('LOYALTY_CARD_WRONG_TYPE', `This is not a ${type} card`);
  return card;
}
