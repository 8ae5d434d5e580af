// A minimal entity workflow over workflows/shared/entity-inbox.ts, for testing the inbox on its own:
// it records every committed change it is shown and ends when the entity reaches DONE.
import { defineQuery, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import { entityInbox, type EntityEvent } from '../../../workflows/shared/entity-inbox';

export interface ProbeEvent extends EntityEvent {
  type: 'Changed';
}

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

export const probeSignal = defineSignal<[ProbeEvent]>('probeEvent');
export const seenQuery = defineQuery<SeenChange[]>('seen');

const { readProbe } = proxyActivities<ProbeActivities>({
  startToCloseTimeout: '5 seconds',
  retry: { initialInterval: '100 milliseconds', backoffCoefficient: 2, maximumInterval: '1 second', maximumAttempts: 10 },
});

export async function entityInboxProbe({ entityId, deadlineMs }: ProbeWorkflowArgs): Promise<{ outcome: string; seen: SeenChange[] }> {
  const seen: SeenChange[] = [];
  setHandler(seenQuery, () => seen);
  const entity = entityInbox<ProbeEvent, ProbeSnapshot>({
    name: `probe ${entityId}`,
    signal: probeSignal,
    readCommitted: (minVersion) => readProbe({ entityId, minVersion }),
    versionNotVisible: 'VERSION_NOT_VISIBLE',
    onChange: async ({ event, previous, current }) => {
      seen.push({ eventVersion: event.entityVersion, previousVersion: previous?.version ?? null, version: current.version, state: current.state });
    },
  });
  if (!(await entity.first())) return { outcome: 'NEVER_COMMITTED', seen };
  const startedAt = Date.now();
  const done = await entity.waitUntil((s) => s.state === 'DONE', { deadline: () => (deadlineMs === undefined ? null : startedAt + deadlineMs) });
  return { outcome: done ? 'DONE' : 'DEADLINE', seen };
}
