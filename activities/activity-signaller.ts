// The EntitySignaller for activities: signal-with-start through the worker's own Temporal client,
// on the task queue the activity runs on. An activity that changes another entity (the booking's
// completion step issuing a voucher) tells that entity's workflow before its transaction commits,
// like the api does; a failed signal fails the activity, which rolls back and is retried.
import { Context } from '@temporalio/activity';
import type { EntitySignaller } from '../domain/workflow-signals/entity-signaller';
import { signalWithStart } from '../integrations/temporal/temporal-signaller';

export const activitySignaller: EntitySignaller = {
  async signal(ref, signalName, event) {
    const ctx = Context.current();
    await signalWithStart(ctx.client, ctx.info.taskQueue, ref, signalName, event);
  },
};
