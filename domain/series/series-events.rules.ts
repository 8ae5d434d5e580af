// The series' workflow contract (docs/rules/consistency.md#the-entity-contract, docs/rules/series.md#its-workflow):
// one workflow per series, `seriesWorkflow` with id `series:<id>`, told about every committed change
// by the signal `seriesEvent` `{type, entityVersion}`, reading the series as a SeriesSnapshot.
// Pure: imported by the series services, the activities and the workflow.
import { entityContract, type EntityEvent } from '../workflow-signals/entity-contract.rules';
import type { SeriesEndReason, SeriesStatus } from './series.rules';

export type SeriesEventType =
  | 'SeriesCreated'
  // interval or staff member changed: occurrences not yet booked follow the new plan
  | 'SeriesChanged'
  | 'SeriesOccurrenceCancelled'
  | 'SeriesEnded'
  // the salon or the platform cancelled the booking the series was made from: it ends, and its workflow cancels what it booked
  | 'SeriesFirstBookingCancelled'
  // the salon's booking window grew: occurrences now inside it are booked at once
  | 'SeriesWindowChanged';

export type SeriesEvent = EntityEvent<SeriesEventType>;

export interface SeriesWorkflowArgs {
  seriesId: string;
  tenantId: string;
  /** set by the workflow when it continues as new: occurrences through this index were already announced */
  announcedThrough?: number;
}

export interface SeriesSnapshot {
  seriesId: string;
  status: SeriesStatus;
  version: number;
  /** unset in snapshots read before the reason was kept */
  endReason?: SeriesEndReason | null;
}

export const seriesContract = entityContract<SeriesEventType, SeriesWorkflowArgs, SeriesSnapshot>({
  entity: 'series',
  startArgs: (s) => ({ seriesId: s.id, tenantId: s.tenantId }),
});
