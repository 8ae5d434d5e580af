// The SMS that fall due together (a morning's reminders) go through a task queue of their own, whose
// workers ask the server for at most SMS_SEND_RATE_PER_SECOND activities a second: the server hands
// them out at that pace across every worker, so the gateway is never sent more than it accepts
// (docs/rules/reminders.md#the-send-rate). A customer's answer to what they just did (received,
// confirmed, moved, cancelled) keeps its local delivery: it comes at the pace people book, and it
// does not wait behind a morning's backlog.

/** The SMS queue beside a worker's task queue, e.g. `salon-sms` beside `salon`. */
export function smsTaskQueue(taskQueue: string): string {
  return `${taskQueue}-sms`;
}
