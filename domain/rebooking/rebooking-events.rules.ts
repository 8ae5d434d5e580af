// The rebooking nudge's workflow contract (docs/rules/consistency.md#the-entity-contract,
// docs/rules/series.md#rebooking-nudges): one workflow per customer and salon, `rebookingNudgeWorkflow`
// with id `rebooking-nudge:<nudge id>`, told when a newer visit completed (`rebookingNudgeEvent`).
// Pure: imported by the rebooking service, the activities and the workflow.
import { entityContract, type EntityEvent } from '../workflow-signals/entity-contract.rules';

export type NudgeStatus = 'WAITING' | 'SENT' | 'BOOKED_BEFORE' | 'NOT_AGREED' | 'NO_INTERVAL' | 'NO_CONTACT' | 'PASSED';

export type RebookingNudgeEventType = 'RebookingVisitRecorded';
export type RebookingNudgeEvent = EntityEvent<RebookingNudgeEventType>;

export interface RebookingNudgeWorkflowArgs {
  nudgeId: string;
  tenantId: string;
}

export interface RebookingNudgeSnapshot {
  nudgeId: string;
  version: number;
  status: NudgeStatus;
  /** the visit the nudge follows */
  visitBookingId: string;
  /** epoch ms: when the nudge is due; null: nothing to wait for */
  dueAt: number | null;
}

export const rebookingNudgeContract = entityContract<RebookingNudgeEventType, RebookingNudgeWorkflowArgs, RebookingNudgeSnapshot>({
  entity: 'rebookingNudge',
  idPrefix: 'rebooking-nudge',
  startArgs: (n) => ({ nudgeId: n.id, tenantId: n.tenantId }),
});
