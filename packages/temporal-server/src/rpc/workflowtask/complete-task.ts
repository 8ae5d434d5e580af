// RespondWorkflowTaskCompleted / RespondWorkflowTaskFailed: turn the worker's commands into history
// events, in command order, then flush events buffered while the task ran (packages/temporal-server/PROTOCOL.md#workflow-tasks).
//
// A completion is applied atomically: commands are validated before anything is written, and a
// closing command that would hide buffered events from the workflow is rejected with
// UnhandledCommand so the workflow sees them on the next task.
import { status as Status } from '@grpc/grpc-js';
import { invalidArgument, notFound, RpcError } from '../../errors';
import { flushBuffered } from '../../history/buffered-events';
import type {
  Command,
  Failure,
  PollActivityTaskResponse,
  ProtocolMessage,
  RespondWorkflowTaskCompletedRequest,
  RespondWorkflowTaskCompletedResponse,
  RespondWorkflowTaskFailedRequest,
} from '../../messages';
import { WftFailedCause } from '../../proto';
import type { Run } from '../../state/run';
import { decodeToken } from '../../tokens';
import type { ActivityAttempts } from '../activity/activity-attempts';
import type { Queries } from '../query/queries';
import type { Updates } from '../update/updates';
import type { CrossWorkflowCommands } from './commands/cross-workflow-commands';
import { continueAsNew, ContinueAsNewDeps } from './commands/continue-as-new';
import { CLOSING_COMMANDS, commandName, validateCommands } from './commands/validate-commands';
import type { WorkflowCommands } from './commands/workflow-commands';
import type { WorkflowTasks } from './workflow-tasks';
import { recordBuildId } from './build-ids';

export interface CompletionDeps {
  clock: { now(): number; workChanged(): void };
  tasks: Pick<WorkflowTasks, 'startedTaskFor' | 'fail' | 'retry' | 'schedule'>;
  activities: Pick<ActivityAttempts, 'schedule' | 'requestCancelByCommand'>;
  updates: Pick<Updates, 'apply' | 'hasUnseen' | 'hasPending'>;
  queries: Pick<Queries, 'answerAttached' | 'redeliverPending'>;
  commands: WorkflowCommands;
  crossWorkflow: CrossWorkflowCommands;
  continueAsNew: ContinueAsNewDeps;
}

function serverFailure(message: string): Failure {
  return { message, source: 'Server', serverFailureInfo: { nonRetryable: true } };
}

export class WorkflowTaskCompletion {
  constructor(private readonly deps: CompletionDeps) {}

  failed(req: RespondWorkflowTaskFailedRequest): void {
    const token = decodeToken(req.taskToken, req.namespace);
    if (token.k !== 'wft') throw notFound('not a workflow task token');
    const run = this.deps.tasks.startedTaskFor(token);
    this.deps.tasks.fail(run, req.cause ?? WftFailedCause.v('UNHANDLED_COMMAND'), req.failure, req.identity);
  }

  completed(req: RespondWorkflowTaskCompletedRequest): RespondWorkflowTaskCompletedResponse {
    const token = decodeToken(req.taskToken, req.namespace);
    if (token.k !== 'wft') throw notFound('not a workflow task token');
    const { tasks, updates, queries, clock } = this.deps;
    const run = tasks.startedTaskFor(token);
    const commands = req.commands ?? [];
    const closeIdx = commands.findIndex((c) => CLOSING_COMMANDS.has(commandName(c)));
    if (closeIdx >= 0 && closeIdx !== commands.length - 1) throw invalidArgument('a workflow-closing command must be the last command');

    const bad = validateCommands(run, commands);
    if (bad) {
      tasks.fail(run, WftFailedCause.v(bad[0]), serverFailure(bad[1]), req.identity);
      throw invalidArgument(bad[1]);
    }
    if (closeIdx >= 0 && this.hidesNewEvents(run, commands)) {
      // Keep attempt 1: this is not the workflow's fault.
      run.append(
        'WORKFLOW_TASK_FAILED',
        {
          scheduledEventId: run.wft.scheduledEventId,
          startedEventId: run.wft.startedEventId,
          cause: WftFailedCause.v('UNHANDLED_COMMAND'),
          failure: serverFailure('UnhandledCommand'),
          identity: req.identity,
        },
        clock.now(),
      );
      tasks.retry(run, 1);
      throw invalidArgument('UnhandledCommand');
    }

    const wft = run.wft;
    const wtc = run.append(
      'WORKFLOW_TASK_COMPLETED',
      {
        scheduledEventId: wft.scheduledEventId,
        startedEventId: wft.startedEventId,
        identity: req.identity,
        binaryChecksum: req.binaryChecksum,
        // Unversioned sdk-core workers report their build id only as the binary checksum.
        workerVersion: req.workerVersionStamp ?? (req.binaryChecksum ? { buildId: req.binaryChecksum } : undefined),
        sdkMetadata: req.sdkMetadata,
        meteringMetadata: req.meteringMetadata,
      },
      clock.now(),
    ).eventId;
    wft.timeout?.cancel();
    recordBuildId(run, req);
    run.lastCompletedStartedId = wft.startedEventId;
    const attachedQueries = wft.queries;
    wft.queries = new Map();
    // wft.state stays 'started' while commands run, so anything arriving meanwhile is buffered.

    let needNewTask = !!req.forceCreateNewWorkflowTask;
    const afterwards: (() => void)[] = [];
    const eagerActivities: PollActivityTaskResponse[] = [];
    // Protocol messages (update answers) are applied where their ProtocolMessage command sits.
    const messages = new Map<string, ProtocolMessage>((req.messages ?? []).map((m) => [m.id ?? '', m]));
    for (const cmd of commands) {
      if (commandName(cmd) === 'PROTOCOL_MESSAGE') {
        const id = cmd.protocolMessageCommandAttributes?.messageId ?? '';
        const m = messages.get(id);
        messages.delete(id);
        if (m) updates.apply(run, m, wtc);
        continue;
      }
      const commandEvent = run.history.length;
      needNewTask = this.apply(run, cmd, wtc, req.identity, afterwards, eagerActivities) || needNewTask;
      // As on the real server, a command's user metadata (summary, details) goes on the event it
      // wrote first: ActivityTaskScheduled, TimerStarted, the child's initiated event, a marker...
      // The event is not sent or stored before this completion returns, so setting it here is safe.
      if (cmd.userMetadata && run.history.length > commandEvent) run.history[commandEvent].userMetadata ??= cmd.userMetadata;
      if (!run.open) break;
    }
    if (run.open) for (const m of messages.values()) updates.apply(run, m, wtc);
    if (run.open && updates.hasPending(run)) needNewTask = true;
    queries.answerAttached(run, req.queryResults ?? {}, attachedQueries);
    if (run.open) {
      run.wft = { ...run.wft, state: 'none', queries: new Map() };
      if (flushBuffered(run, clock.now())) needNewTask = true;
      if (needNewTask && run.wft.state === 'none') tasks.schedule(run);
      queries.redeliverPending(run);
    }
    for (const f of afterwards) f();
    clock.workChanged();
    return { activityTasks: run.open ? eagerActivities : [] };
  }

  /** A closing command while events or updates the workflow has not seen are waiting. */
  private hidesNewEvents(run: Run, commands: Command[]): boolean {
    const cancelled = new Set(commands.filter((c) => commandName(c) === 'CANCEL_TIMER').map((c) => c.cancelTimerCommandAttributes?.timerId));
    // A TimerFired for a timer this completion cancels is dropped, so it hides nothing.
    const unseen = run.buffered.filter((b) => !(b.timerId && cancelled.has(b.timerId)));
    return unseen.length > 0 || this.deps.updates.hasUnseen(run, run.wft.startedEventId);
  }

  /** Applies one command; returns true when it requires a new workflow task. */
  private apply(run: Run, cmd: Command, wtc: number, identity: string | undefined, afterwards: (() => void)[], eager: PollActivityTaskResponse[]): boolean {
    const { activities, commands, crossWorkflow } = this.deps;
    const name = commandName(cmd);
    switch (name) {
      case 'SCHEDULE_ACTIVITY_TASK': {
        const a = cmd.scheduleActivityTaskCommandAttributes ?? {};
        const task = activities.schedule(run, a, wtc, a.requestEagerExecution ? (identity ?? '') : undefined);
        if (task) eager.push(task);
        return false;
      }
      case 'REQUEST_CANCEL_ACTIVITY_TASK':
        return activities.requestCancelByCommand(run, cmd.requestCancelActivityTaskCommandAttributes?.scheduledEventId ?? 0, wtc);
      case 'START_TIMER':
        commands.startTimer(run, cmd.startTimerCommandAttributes ?? {}, wtc);
        return false;
      case 'CANCEL_TIMER':
        commands.cancelTimer(run, cmd.cancelTimerCommandAttributes?.timerId ?? '', wtc, identity);
        return false;
      case 'COMPLETE_WORKFLOW_EXECUTION':
        commands.complete(run, cmd.completeWorkflowExecutionCommandAttributes, wtc);
        return false;
      case 'FAIL_WORKFLOW_EXECUTION':
        commands.fail(run, cmd.failWorkflowExecutionCommandAttributes, wtc);
        return false;
      case 'CANCEL_WORKFLOW_EXECUTION':
        commands.cancel(run, cmd.cancelWorkflowExecutionCommandAttributes, wtc);
        return false;
      case 'CONTINUE_AS_NEW_WORKFLOW_EXECUTION':
        continueAsNew(this.deps.continueAsNew, run, cmd.continueAsNewWorkflowExecutionCommandAttributes ?? {}, wtc);
        return false;
      case 'RECORD_MARKER':
        commands.recordMarker(run, cmd.recordMarkerCommandAttributes ?? {}, wtc);
        return false;
      case 'UPSERT_WORKFLOW_SEARCH_ATTRIBUTES':
        commands.upsertSearchAttributes(run, cmd.upsertWorkflowSearchAttributesCommandAttributes, wtc);
        return false;
      case 'MODIFY_WORKFLOW_PROPERTIES':
        commands.modifyProperties(run, cmd.modifyWorkflowPropertiesCommandAttributes, wtc);
        return false;
      case 'START_CHILD_WORKFLOW_EXECUTION':
        crossWorkflow.startChild(run, cmd.startChildWorkflowExecutionCommandAttributes ?? {}, wtc, afterwards, cmd.userMetadata);
        return false;
      case 'SIGNAL_EXTERNAL_WORKFLOW_EXECUTION':
        crossWorkflow.signalExternal(run, cmd.signalExternalWorkflowExecutionCommandAttributes ?? {}, wtc, afterwards);
        return false;
      case 'REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION':
        crossWorkflow.cancelExternal(run, cmd.requestCancelExternalWorkflowExecutionCommandAttributes ?? {}, wtc, afterwards);
        return false;
    }
    throw new RpcError(Status.INVALID_ARGUMENT, `unsupported command ${name}`);
  }
}
