// Writing events that arrive from outside the workflow (packages/temporal-server/PROTOCOL.md#histories): while a workflow
// task is started they wait in the run's buffer, because an event between WorkflowTaskStarted and
// its close would shift activation boundaries on replay; they are written when the task closes.
import type { NewEvent } from '../messages';
import type { BufferedEvent, Run } from '../state/run';

/** Writes one external event (or activity start/close pair) and updates the run's bookkeeping. */
export function writeExternalEvent(run: Run, b: BufferedEvent, now: number): void {
  let previous = 0;
  for (const [i, ev] of b.events.entries()) {
    // Linkage ids are only known when the events are written.
    const attrs: Record<string, unknown> = { ...ev.attrs };
    if (b.linkStarted && i === 1 && previous) attrs.startedEventId = previous;
    if (b.childClosed !== undefined) attrs.startedEventId = run.children.get(b.childClosed)?.startedEventId;
    previous = run.appendEvent({ type: ev.type, attrs } as NewEvent, now).eventId;
  }
  if (b.activityDone !== undefined) run.activities.delete(b.activityDone);
  if (b.childStarted !== undefined) {
    const child = run.children.get(b.childStarted);
    if (child) child.startedEventId = previous;
  }
  if (b.childClosed !== undefined) run.children.delete(b.childClosed);
}

/** Writes the buffered events; returns whether there were any. */
export function flushBuffered(run: Run, now: number): boolean {
  if (!run.buffered.length) return false;
  const items = run.buffered.splice(0);
  for (const b of items) writeExternalEvent(run, b, now);
  return true;
}
