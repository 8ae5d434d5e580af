// Commands that reach other workflows: StartChildWorkflowExecution, SignalExternalWorkflowExecution
// and RequestCancelExternalWorkflowExecution. The initiated event is written in command order; the
// effect on the other workflow runs after the whole completion is applied (`afterwards`), and its
// outcome comes back to this run as an external event.
import { randomUUID } from 'node:crypto';
import { status as Status } from '@grpc/grpc-js';
import { RpcError } from '../../../errors';
import type { ExternalEvents } from '../../../history/external-events';
import type { CommandAttributes, UserMetadata, WorkflowExecution } from '../../../messages';
import { CancelExternalFailedCause, ExternalFailedCause, StartChildFailedCause, TaskQueueKind } from '../../../proto';
import type { ChildState, Run } from '../../../state/run';
import type { RunRegistry } from '../../../state/run-registry';
import type { SearchAttributeTypes } from '../../../state/search-attribute-types';
import type { SignalAndCancel } from '../../lifecycle/signal-and-cancel';
import type { WorkflowStarter } from '../../start/start-workflow';

export interface CrossWorkflowDeps {
  clock: { now(): number };
  registry: Pick<RunRegistry, 'namespaces' | 'resolveRun'>;
  starter: Pick<WorkflowStarter, 'start'>;
  signals: Pick<SignalAndCancel, 'signal' | 'requestCancel'>;
  events: Pick<ExternalEvents, 'add' | 'addOne'>;
  searchAttributes: Pick<SearchAttributeTypes, 'typed'>;
}

export class CrossWorkflowCommands {
  constructor(private readonly deps: CrossWorkflowDeps) {}

  startChild(run: Run, a: CommandAttributes<'START_CHILD_WORKFLOW_EXECUTION'>, wtc: number, afterwards: (() => void)[], userMetadata?: UserMetadata): void {
    const { registry, starter, events } = this.deps;
    const namespace = a.namespace || run.namespace;
    const workflowId = a.workflowId ?? '';
    const workflowType = { name: a.workflowType?.name ?? '' };
    const taskQueue = a.taskQueue?.name ? { name: a.taskQueue.name, kind: TaskQueueKind.NORMAL } : { name: run.taskQueue, kind: TaskQueueKind.NORMAL };
    const searchAttributes = this.deps.searchAttributes.typed(a.searchAttributes);
    const ev = run.append(
      'START_CHILD_WORKFLOW_EXECUTION_INITIATED',
      { ...a, namespace, taskQueue, searchAttributes, workflowTaskCompletedEventId: wtc },
      this.deps.clock.now(),
    );
    const child: ChildState = {
      initiatedEventId: ev.eventId,
      namespace,
      workflowId,
      workflowType: workflowType.name,
      parentClosePolicy: a.parentClosePolicy ?? 0,
    };
    run.children.set(child.initiatedEventId, child);
    afterwards.push(() => {
      if (!run.open) return;
      const common = { namespace, workflowId, workflowType: a.workflowType, initiatedEventId: child.initiatedEventId };
      try {
        if (!registry.namespaces.has(namespace)) throw new RpcError(Status.NOT_FOUND, 'namespace');
        const root = run.parent ? (run.startAttributes.rootWorkflowExecution ?? run.execution) : run.execution;
        const { runId } = starter.start(
          namespace,
          {
            workflowId,
            workflowType: a.workflowType,
            taskQueue,
            input: a.input,
            workflowExecutionTimeout: a.workflowExecutionTimeout,
            workflowRunTimeout: a.workflowRunTimeout,
            workflowTaskTimeout: a.workflowTaskTimeout,
            workflowIdReusePolicy: a.workflowIdReusePolicy,
            retryPolicy: a.retryPolicy,
            header: a.header,
            memo: a.memo,
            searchAttributes: a.searchAttributes,
            requestId: randomUUID(),
            identity: 'parent',
            priority: a.priority,
            userMetadata,
          },
          {
            parent: {
              namespace: run.namespace,
              workflowId: run.workflowId,
              runId: run.runId,
              initiatedEventId: child.initiatedEventId,
              parentClosePolicy: child.parentClosePolicy,
              root,
            },
          },
        );
        child.runId = runId;
        events.add(run, {
          events: [
            {
              type: 'CHILD_WORKFLOW_EXECUTION_STARTED',
              attrs: {
                namespace,
                initiatedEventId: child.initiatedEventId,
                workflowExecution: { workflowId, runId },
                workflowType: a.workflowType,
                header: a.header,
              },
            },
          ],
          childStarted: child.initiatedEventId,
        });
      } catch (err) {
        const code = (err as RpcError).code;
        const cause = code === Status.ALREADY_EXISTS ? 'WORKFLOW_ALREADY_EXISTS' : 'NAMESPACE_NOT_FOUND';
        run.children.delete(child.initiatedEventId);
        events.addOne(run, 'START_CHILD_WORKFLOW_EXECUTION_FAILED', { ...common, cause: StartChildFailedCause.v(cause), workflowTaskCompletedEventId: wtc });
      }
    });
  }

  private findOpen(ns: string, execution: WorkflowExecution | undefined): Run | undefined {
    try {
      const target = this.deps.registry.resolveRun(ns, execution);
      return target.open ? target : undefined;
    } catch {
      return undefined;
    }
  }

  signalExternal(run: Run, a: CommandAttributes<'SIGNAL_EXTERNAL_WORKFLOW_EXECUTION'>, wtc: number, afterwards: (() => void)[]): void {
    const { signals, events } = this.deps;
    const namespace = a.namespace || run.namespace;
    const ev = run.append(
      'SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED',
      {
        namespace,
        workflowExecution: a.execution,
        signalName: a.signalName,
        input: a.input,
        control: a.control,
        childWorkflowOnly: a.childWorkflowOnly,
        header: a.header,
        workflowTaskCompletedEventId: wtc,
      },
      this.deps.clock.now(),
    );
    const initiatedEventId = ev.eventId;
    afterwards.push(() => {
      if (!run.open) return;
      const target = this.findOpen(namespace, a.execution);
      if (target) {
        signals.signal(target, {
          signalName: a.signalName ?? '',
          input: a.input,
          header: a.header,
          identity: `workflow:${run.workflowId}`,
          external: run.execution,
        });
        events.addOne(run, 'EXTERNAL_WORKFLOW_EXECUTION_SIGNALED', {
          initiatedEventId,
          namespace,
          workflowExecution: { workflowId: target.workflowId, runId: target.runId },
          control: a.control,
        });
      } else {
        events.addOne(run, 'SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_FAILED', {
          cause: ExternalFailedCause.v('EXTERNAL_WORKFLOW_EXECUTION_NOT_FOUND'),
          initiatedEventId,
          namespace,
          workflowExecution: a.execution,
          control: a.control,
          workflowTaskCompletedEventId: wtc,
        });
      }
    });
  }

  cancelExternal(run: Run, a: CommandAttributes<'REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION'>, wtc: number, afterwards: (() => void)[]): void {
    const { signals, events } = this.deps;
    const namespace = a.namespace || run.namespace;
    const execution = { workflowId: a.workflowId, runId: a.runId };
    const ev = run.append(
      'REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED',
      {
        namespace,
        workflowExecution: execution,
        control: a.control,
        childWorkflowOnly: a.childWorkflowOnly,
        reason: a.reason,
        workflowTaskCompletedEventId: wtc,
      },
      this.deps.clock.now(),
    );
    const initiatedEventId = ev.eventId;
    afterwards.push(() => {
      if (!run.open) return;
      const target = this.findOpen(namespace, execution);
      if (target) {
        signals.requestCancel(target, { reason: a.reason, identity: `workflow:${run.workflowId}`, external: { initiatedEventId, execution: run.execution } });
        events.addOne(run, 'EXTERNAL_WORKFLOW_EXECUTION_CANCEL_REQUESTED', {
          initiatedEventId,
          namespace,
          workflowExecution: { workflowId: target.workflowId, runId: target.runId },
        });
      } else {
        events.addOne(run, 'REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION_FAILED', {
          cause: CancelExternalFailedCause.v('EXTERNAL_WORKFLOW_EXECUTION_NOT_FOUND'),
          initiatedEventId,
          namespace,
          workflowExecution: execution,
          control: a.control,
          workflowTaskCompletedEventId: wtc,
        });
      }
    });
  }
}
