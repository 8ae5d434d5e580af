// The voucher's workflow contract (docs/rules/consistency.md#the-entity-contract): one workflow per
// voucher, `voucherWorkflow` with id `voucher:<id>`, told about every committed change of the voucher
// row by the signal `voucherEvent` `{type, entityVersion}`, reading the voucher as a VoucherSnapshot.
// Pure: imported by the voucher services, the activities and the workflow.
import { entityContract, type EntityEvent } from '../workflow-signals/entity-contract.rules';
import type { VoucherStatus } from './loyalty.rules';

export type VoucherEventType =
  'VoucherIssued' | 'VoucherReserved' | 'VoucherRestored' | 'VoucherRedeemed' | 'VoucherForfeited' | 'VoucherCancelled' | 'VoucherExpired';

export type VoucherEvent = EntityEvent<VoucherEventType>;

export interface VoucherWorkflowArgs {
  voucherId: string;
  tenantId: string;
}

/** The voucher as its workflow reads it (the read activity, once the event's version committed). */
export interface VoucherSnapshot {
  voucherId: string;
  tenantId: string;
  status: VoucherStatus;
  version: number;
  /** UTC ISO string; null = never expires */
  expiresAt: string | null;
  /** how often it went back from RESERVED to ACTIVE: the workflow may see only the latest state */
  restoredCount: number;
}

export const voucherContract = entityContract<VoucherEventType, VoucherWorkflowArgs, VoucherSnapshot>({
  entity: 'voucher',
  startArgs: (v) => ({ voucherId: v.id, tenantId: v.tenantId }),
  errorPrefix: 'LOYALTY_VOUCHER',
});
