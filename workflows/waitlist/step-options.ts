// Options of the waitlist's state-changing activities: retried until the database answers (a
// failed step must not end the round or the entry), except for a round or entry that is gone.
import type { ActivityOptions } from '@temporalio/workflow';
import { WaitlistActivityErrors } from '../../activities/waitlist.types';

export const waitlistStepOptions: ActivityOptions = {
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', nonRetryableErrorTypes: [WaitlistActivityErrors.notFound] },
};
