// How an activity ends, in the shape of its closing history event (without the ids the close fills
// in): a workflow activity writes it to its run, a standalone one turns it into its outcome.
import type { EventAttributes } from '../../messages';

export type ActivityClose =
  | { type: 'ACTIVITY_TASK_COMPLETED'; attrs: EventAttributes<'ACTIVITY_TASK_COMPLETED'> }
  | { type: 'ACTIVITY_TASK_FAILED'; attrs: EventAttributes<'ACTIVITY_TASK_FAILED'> }
  | { type: 'ACTIVITY_TASK_CANCELED'; attrs: EventAttributes<'ACTIVITY_TASK_CANCELED'> }
  | { type: 'ACTIVITY_TASK_TIMED_OUT'; attrs: EventAttributes<'ACTIVITY_TASK_TIMED_OUT'> };
