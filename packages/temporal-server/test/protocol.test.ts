// Protocol corner cases driven by hand (the test plays the worker), where timing with a real
// worker would make them flaky.
import { expect } from 'chai';
import { temporal } from '@temporalio/proto';
import { eventTypes, uid, useEnv, waitFor } from './harness';

const { CommandType, TaskQueueKind } = temporal.api.enums.v1;

describe('devserver protocol corner cases', function () {
  const env = useEnv({});
  const poll = (tq: string) =>
    env.connection.workflowService.pollWorkflowTaskQueue({
      namespace: 'default',
      taskQueue: { name: tq, kind: TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
      identity: 'by-hand',
    });
  const complete = (taskToken: Uint8Array, commands: temporal.api.command.v1.ICommand[]) =>
    env.connection.workflowService.respondWorkflowTaskCompleted({ namespace: 'default', taskToken, identity: 'by-hand', commands });

  it('a timer that fires while the task cancelling it runs is dropped, not fired after cancel', async () => {
    const tq = uid('tq');
    const h = await env.client.workflow.start('timerRace', { taskQueue: tq, workflowId: uid('wf'), args: [0] });
    const t1 = await poll(tq);
    await complete(t1.taskToken!, [
      { commandType: CommandType.COMMAND_TYPE_START_TIMER, startTimerCommandAttributes: { timerId: '1', startToFireTimeout: { nanos: 150_000_000 } } },
    ]);
    await h.signal('done');
    const t2 = await poll(tq);
    // the race, observed in the server: task 2 is started and the timer's fire waits in the run's buffer
    const run = env.server.engine.registry.currentRun('default', h.workflowId)!;
    await waitFor(async () => run.wft.state === 'started' && run.buffered.some((b) => b.events.some((e) => e.type === 'TIMER_FIRED')));
    expect(run.timers.has('1'), 'the timer is no longer pending: it fired').to.equal(false);
    await complete(t2.taskToken!, [
      { commandType: CommandType.COMMAND_TYPE_CANCEL_TIMER, cancelTimerCommandAttributes: { timerId: '1' } },
      { commandType: CommandType.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION, completeWorkflowExecutionCommandAttributes: {} },
    ]);
    const types = await eventTypes(env.client, h.workflowId);
    expect(types).to.include('TIMER_CANCELED');
    expect(types).to.not.include('TIMER_FIRED');
    expect(types[types.length - 1]).to.equal('WORKFLOW_EXECUTION_COMPLETED');
    const history = await h.fetchHistory();
    const canceled = history.events!.find((e) => e.timerCanceledEventAttributes)!;
    const started = history.events!.find((e) => e.timerStartedEventAttributes)!;
    expect(Number(canceled.timerCanceledEventAttributes!.startedEventId)).to.equal(Number(started.eventId));
  });

  it('reports previous/started event ids that frame exactly the new events', async () => {
    const tq = uid('tq');
    const h = await env.client.workflow.start('accumulator', { taskQueue: tq, workflowId: uid('wf') });
    const t1 = await poll(tq);
    expect(Number(t1.previousStartedEventId)).to.equal(0);
    expect(Number(t1.startedEventId)).to.equal(3);
    await complete(t1.taskToken!, []);
    await h.signal('add', 1);
    const t2 = await poll(tq);
    expect(Number(t2.previousStartedEventId)).to.equal(3);
    expect(Number(t2.startedEventId)).to.equal(7); // completed(4), signaled(5), scheduled(6), started(7)
    expect(t2.history!.events!.map((e) => Number(e.eventId))).to.deep.equal([1, 2, 3, 4, 5, 6, 7]);
    // A failed task is retried with attempt 2; previous_started stays at the last completed task.
    await env.connection.workflowService.respondWorkflowTaskFailed({ namespace: 'default', taskToken: t2.taskToken, identity: 'by-hand' });
    const t3 = await poll(tq);
    expect(t3.attempt).to.equal(2);
    expect(Number(t3.previousStartedEventId)).to.equal(3);
    await h.terminate();
  });
});
