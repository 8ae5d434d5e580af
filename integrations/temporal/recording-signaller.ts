// An EntitySignaller that remembers what it sent: the tests and the dev platform read `sent` to see
// which events a change produced, while the wrapped signaller (when given) still delivers them.
import type { EntityEvent, EntitySignaller, EntityWorkflowRef } from '../../domain/workflow-signals/entity-signaller';

export class RecordingSignaller implements EntitySignaller {
  readonly sent: { ref: EntityWorkflowRef; signalName: string; event: EntityEvent }[] = [];

  constructor(private readonly next?: EntitySignaller) {
    if (next?.ping) this.ping = () => next.ping!();
  }

  ping?: () => Promise<void>;

  async signal(ref: EntityWorkflowRef, signalName: string, event: EntityEvent): Promise<void> {
    await this.next?.signal(ref, signalName, event);
    this.sent.push({ ref, signalName, event });
  }
}
