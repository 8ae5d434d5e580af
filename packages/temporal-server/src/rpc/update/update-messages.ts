// The protocol messages that carry update requests to the worker: every request not yet accepted
// or rejected rides on each workflow task until the worker answers it. Pure: reads and marks the
// run's update state, so the workflow task dispatcher can use it without depending on Updates.
import type { ProtocolMessage } from '../../messages';
import { encodeMessage, protoType } from '../../proto';
import type { Run } from '../../state/run';

export const TYPE_PREFIX = 'type.googleapis.com/';

/** Requests not yet accepted or rejected, as delivered with the task started at `startedEventId`. */
export function updateRequestMessages(run: Run, startedEventId: number): ProtocolMessage[] {
  const out: ProtocolMessage[] = [];
  for (const u of run.updates.values()) {
    if (u.state !== 'requested') continue;
    u.deliveredIn = startedEventId;
    out.push({
      id: `${u.updateId}/request`,
      protocolInstanceId: u.updateId,
      eventId: startedEventId - 1,
      body: { type_url: `${TYPE_PREFIX}temporal.api.update.v1.Request`, value: encodeMessage(protoType('temporal.api.update.v1.Request'), u.request) },
    });
  }
  return out;
}
