// Test-only EntitySignaller: records every signal in memory, then passes it on to `next` when
// given. Tests read `sent` to assert which events a change produced, while the real signaller
// still delivers them. Production never uses it (bin/ wires the TemporalSignaller).
import type { EntityEvent, EntitySignaller, EntityWorkflowRef } from '../../domain/workflow-signals/entity-signaller';

export class RecordingSignaller implements EntitySignaller {
  /** `at`: when the signal was answered (epoch ms) */
  readonly sent: { ref: EntityWorkflowRef; signalName: string; event: EntityEvent; at: number }[] = [];

  constructor(private readonly next?: EntitySignaller) {
    if (next?.ping) this.ping = () => next.ping!();
  }

  ping?: () => Promise<void>;

  async signal(ref: EntityWorkflowRef, signalName: string, event: EntityEvent): Promise<void> {
    await this.next?.signal(ref, signalName, event);
    this.sent.push({ ref, signalName, event, at: Date.now() });
  }
}
