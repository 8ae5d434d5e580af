// Ending a start delay early. Like the real server, signal-with-start on a running workflow and
// an update both schedule a workflow task when none is pending, even while the first task is held
// back by a start delay, so the workflow starts at once (plain signals wait for the delay).
import type { Run } from '../../state/run';
import type { WorkflowTasks } from '../workflowtask/workflow-tasks';

export function startNow(run: Run, workflowTasks: Pick<WorkflowTasks, 'schedule'>): void {
  if (!run.open) return;
  if (run.startDelayPending) {
    run.startDelayPending = false;
    run.touch();
  }
  if (run.wft.state === 'none') workflowTasks.schedule(run);
}
