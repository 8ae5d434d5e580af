// Asking for an erasure (docs/rules/personal-data.md#erasure): the salon's owner for one customer
// record, or a signed-in customer for their account. The request is a row (one per record, one per
// account: a second request answers the first) whose workflow, told before the row commits, does
// the erasure step by step (erasure-steps.ts through activities/personal-data.activities.ts).
import type { Db } from '../../db/db-handle';
import { errors } from '../errors';
import { changeEntity } from '../workflow-signals/entity-change';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import { findCustomer } from '../customer/customer.repository';
import { erasureContract } from './erasure-events.rules';
import { claimErasure, erasureOfCustomer, type ErasureRow, type NewErasure } from './personal-data.repository';
import { erasureDto, type ErasureDto } from './personal-data.dto';

export interface ErasureRequestDeps {
  knex: Db;
  signaller: EntitySignaller;
}

/** The request, and whether this call made it (202) or found it (200). */
export interface AskedErasure {
  erasure: ErasureDto;
  created: boolean;
}

async function ask(deps: ErasureRequestDeps, request: NewErasure): Promise<AskedErasure> {
  return deps.knex.transaction(async (trx) => {
    const { row, created } = await claimErasure(trx, request);
    if (created) {
      // the request's workflow is told before the row commits, like every entity change
      await changeEntity(deps.signaller, erasureContract, {
        write: async () => ({ id: row.id, tenantId: row.tenantId ?? '', version: row.version }),
        event: 'ErasureRequested',
      });
    }
    return { erasure: erasureDto(row), created };
  });
}

/** POST /customers/{id}/erasure: the salon's owner; 404 for another salon's customer. */
export async function requestCustomerErasure(deps: ErasureRequestDeps, tenantId: string, customerId: string, userId: string, now: Date): Promise<AskedErasure> {
  if (!(await findCustomer(deps.knex, tenantId, customerId))) throw errors.notFound('customer');
  return ask(deps, { tenantId, customerId, customerAccountId: null, parentId: null, requestedBy: 'SALON', requestedByUserId: userId, requestedAt: now });
}

/** POST /customer/me/erasure: the signed-in customer's account and every salon record linked to it. */
export async function requestAccountErasure(deps: ErasureRequestDeps, accountId: string, now: Date): Promise<AskedErasure> {
  return ask(deps, {
    tenantId: null,
    customerId: null,
    customerAccountId: accountId,
    parentId: null,
    requestedBy: 'CUSTOMER',
    requestedByUserId: null,
    requestedAt: now,
  });
}

/** GET /customers/{id}/erasure: null when none was asked for. */
export async function customerErasure(db: Db, tenantId: string, customerId: string): Promise<ErasureDto | null> {
  if (!(await findCustomer(db, tenantId, customerId))) throw errors.notFound('customer');
  const erasure: ErasureRow | undefined = await erasureOfCustomer(db, tenantId, customerId);
  return erasure ? erasureDto(erasure) : null;
}
