// Validation of a completion's commands before anything is written, so a completion is applied
// atomically: the first invalid command fails the workflow task with its cause (packages/temporal-server/PROTOCOL.md#workflow-tasks).
import type { Command, CommandName } from '../../../messages';
import { CommandType } from '../../../proto';
import type { Run } from '../../../state/run';
import { validateScheduleActivity } from '../../activity/schedule-activity';

export const CLOSING_COMMANDS = new Set<string>([
  'COMPLETE_WORKFLOW_EXECUTION',
  'FAIL_WORKFLOW_EXECUTION',
  'CANCEL_WORKFLOW_EXECUTION',
  'CONTINUE_AS_NEW_WORKFLOW_EXECUTION',
]);

export function commandName(cmd: Command): CommandName | 'UNSPECIFIED' {
  return (CommandType.name(cmd.commandType ?? 0) ?? 'UNSPECIFIED') as CommandName | 'UNSPECIFIED';
}

/** Returns [cause, message] for the first invalid command, or undefined. */
export function validateCommands(run: Run, commands: Command[]): [string, string] | undefined {
  const activityIds = new Set([...run.activities.values()].map((a) => a.activityId));
  const timers = new Set([...run.timers.keys(), ...run.buffered.filter((b) => b.timerId).map((b) => b.timerId!)]);
  for (const cmd of commands) {
    const name = commandName(cmd);
    switch (name) {
      case 'SCHEDULE_ACTIVITY_TASK': {
        const a = cmd.scheduleActivityTaskCommandAttributes;
        const err = validateScheduleActivity(a);
        if (err) return ['BAD_SCHEDULE_ACTIVITY_ATTRIBUTES', err];
        const id = a?.activityId ?? '';
        if (activityIds.has(id)) return ['BAD_SCHEDULE_ACTIVITY_ATTRIBUTES', `Activity with id ${id} is already open`];
        activityIds.add(id);
        break;
      }
      case 'REQUEST_CANCEL_ACTIVITY_TASK': {
        const id = cmd.requestCancelActivityTaskCommandAttributes?.scheduledEventId ?? 0;
        if (!run.activities.has(id))
          return [
            'BAD_REQUEST_CANCEL_ACTIVITY_ATTRIBUTES',
            `no open activity scheduled by event ${cmd.requestCancelActivityTaskCommandAttributes?.scheduledEventId}`,
          ];
        break;
      }
      case 'START_TIMER': {
        const a = cmd.startTimerCommandAttributes;
        if (!a?.timerId) return ['BAD_START_TIMER_ATTRIBUTES', 'TimerId is not set'];
        if (timers.has(a.timerId)) return ['BAD_START_TIMER_ATTRIBUTES', `Timer ${a.timerId} already started`];
        timers.add(a.timerId);
        break;
      }
      case 'CANCEL_TIMER': {
        const id = cmd.cancelTimerCommandAttributes?.timerId;
        if (!id || !timers.has(id)) return ['BAD_CANCEL_TIMER_ATTRIBUTES', `Timer ${id} is not open`];
        timers.delete(id);
        break;
      }
      case 'START_CHILD_WORKFLOW_EXECUTION': {
        const a = cmd.startChildWorkflowExecutionCommandAttributes;
        if (!a?.workflowId || !a.workflowType?.name) return ['BAD_START_CHILD_EXECUTION_ATTRIBUTES', 'WorkflowId and WorkflowType are required'];
        break;
      }
      case 'COMPLETE_WORKFLOW_EXECUTION':
      case 'FAIL_WORKFLOW_EXECUTION':
      case 'CANCEL_WORKFLOW_EXECUTION':
      case 'CONTINUE_AS_NEW_WORKFLOW_EXECUTION':
      case 'RECORD_MARKER':
      case 'PROTOCOL_MESSAGE':
      case 'UPSERT_WORKFLOW_SEARCH_ATTRIBUTES':
      case 'MODIFY_WORKFLOW_PROPERTIES':
      case 'SIGNAL_EXTERNAL_WORKFLOW_EXECUTION':
      case 'REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION':
        break;
      default:
        return ['UNHANDLED_COMMAND', `command ${name} is not supported by this dev server`];
    }
  }
  return undefined;
}
