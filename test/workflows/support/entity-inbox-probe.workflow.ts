// A minimal entity workflow over workflows/shared/entity-inbox.ts, for testing the inbox on its own:
// it records every committed change it is shown and ends when the entity reaches DONE.
import { defineQuery, proxyActivities, setHandler } from '@temporalio/workflow';
import { entityContract, type EntityEvent } from '../../../domain/workflow-signals/entity-contract.rules';
import { entityInbox, entitySignal } from '../../../workflows/shared/entity-inbox';

export type ProbeEvent = EntityEvent<'Changed'>;

export interface ProbeSnapshot {
  version: number;
  state: string;
}

export interface ProbeActivities {
  readProbe(input: { entityId: string; minVersion: number }): Promise<ProbeSnapshot>;
}

export interface ProbeWorkflowArgs {
  entityId: string;
  /** how long to wait for DONE before giving up (tests the deadline) */
  deadlineMs?: number;
}

export interface SeenChange {
  eventVersion: number;
  previousVersion: number | null;
  version: number;
  state: string;
}

/** A contract of the probe's own: workflow ids `probe:<id>`, the signal `probeEvent`. */
export const probeContract = entityContract<'Changed', ProbeWorkflowArgs, ProbeSnapshot>({ entity: 'probe', startArgs: (p) => ({ entityId: p.id }) });
export const probeSignal = entitySignal(probeContract);
export const seenQuery = defineQuery<SeenChange[]>('seen');

const { readProbe } = proxyActivities<ProbeActivities>({
  startToCloseTimeout: '5 seconds',
  retry: { initialInterval: '100 milliseconds', backoffCoefficient: 2, maximumInterval: '1 second', maximumAttempts: 10 },
});

export async function entityInboxProbe({ entityId, deadlineMs }: ProbeWorkflowArgs): Promise<{ outcome: string; seen: SeenChange[] }> {
  const seen: SeenChange[] = [];
  setHandler(seenQuery, () => seen);
  const entity = entityInbox(probeContract, entityId, {
    readCommitted: (minVersion) => readProbe({ entityId, minVersion }),
    onChange: async ({ event, previous, current }) => {
      seen.push({ eventVersion: event.entityVersion, previousVersion: previous?.version ?? null, version: current.version, state: current.state });
    },
  });
  if (!(await entity.first())) return { outcome: 'NEVER_COMMITTED', seen };
  const startedAt = Date.now();
  const done = await entity.waitUntil((s) => s.state === 'DONE', {
    deadline: () => (deadlineMs === undefined ? null : startedAt + deadlineMs),
    summary: () => "the probe's deadline",
  });
  return { outcome: done ? 'DONE' : 'DEADLINE', seen };
}
