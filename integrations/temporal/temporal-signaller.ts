// The production EntitySignaller: signal-with-start on Temporal with a short deadline. A failure
// throws TemporalUnreachableError; the domain (signalChange) turns it into its own 503 and the
// caller's transaction rolls back (docs/rules/consistency.md#signal-before-commit).
import { Client, Connection } from '@temporalio/client';
import type { EntityEvent, EntitySignaller, EntityWorkflowRef } from '../../domain/workflow-signals/entity-signaller';

/** Temporal did not accept the signal before the deadline (down, unreachable or too slow). */
export class TemporalUnreachableError extends Error {
  constructor(workflowId: string, cause: unknown) {
    super(`signal to ${workflowId} was not delivered before the deadline`, { cause });
    this.name = 'TemporalUnreachableError';
  }
}

/** Signal-with-start of an entity's workflow: the workflow starts with its one argument when it does not run. */
export async function signalWithStart(client: Client, taskQueue: string, ref: EntityWorkflowRef, signalName: string, event: EntityEvent): Promise<void> {
  await client.workflow.signalWithStart(ref.workflowType, {
    workflowId: ref.workflowId,
    taskQueue,
    args: [ref.startArgs],
    signal: signalName,
    signalArgs: [event],
  });
}

export interface TemporalSignallerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  /** how long a state change may wait for Temporal before it is refused */
  deadlineMs?: number;
  /** told about every failed signal (metrics) */
  onFailure?: (ref: EntityWorkflowRef) => void;
}

export class TemporalSignaller implements EntitySignaller {
  private readonly client: Client;
  private readonly connection: Connection;

  constructor(private readonly options: TemporalSignallerOptions) {
    // Lazy: the api starts even while Temporal is down; writes then answer 503 until it is back.
    // Reconnect attempts back off to at most 5 s (gRPC's default grows to 2 min), so writes are
    // accepted again within seconds of Temporal coming back.
    this.connection = Connection.lazy({
      address: options.address,
      channelArgs: { 'grpc.initial_reconnect_backoff_ms': 500, 'grpc.max_reconnect_backoff_ms': 5000 },
    });
    this.client = new Client({ connection: this.connection, namespace: options.namespace });
  }

  async signal(ref: EntityWorkflowRef, signalName: string, event: EntityEvent): Promise<void> {
    const deadline = Date.now() + (this.options.deadlineMs ?? 5000);
    try {
      await this.client.withDeadline(deadline, () => signalWithStart(this.client, this.options.taskQueue, ref, signalName, event));
    } catch (err) {
      this.options.onFailure?.(ref);
      throw new TemporalUnreachableError(ref.workflowId, err);
    }
  }

  async ping(): Promise<void> {
    await this.client.withDeadline(Date.now() + 2000, () => this.connection.workflowService.getSystemInfo({}));
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
