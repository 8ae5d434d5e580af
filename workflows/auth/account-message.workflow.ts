// A message to an account's owner (docs/rules/auth.md#account-messages), one workflow per message
// (`account-message:<id>`): once the request committed, the message is sent (a password reset's
// links, a contact-change notice, a phone code), retried on the delivery schedule
// (docs/rules/messages.md#delivery-schedule). A request whose transaction rolled back sends nothing.
import { log } from '@temporalio/workflow';
import type { AccountMessageActivities } from '../../activities/account.types';
import { AccountMessageActivityErrors } from '../../activities/account.types';
import { accountMessageContract, type AccountMessageWorkflowArgs } from '../../domain/auth/account-message-events.rules';
import { entityInbox, entitySignal, proxyReadActivities } from '../shared/entity-inbox';
import { proxyDeliveryActivities } from '../shared/message-channels';

export type { AccountMessageWorkflowArgs } from '../../domain/auth/account-message-events.rules';

export const accountMessageEventSignal = entitySignal(accountMessageContract);

const { readAccountMessage } = proxyReadActivities<AccountMessageActivities>([AccountMessageActivityErrors.notFound]);
const { deliverAccountMessage } = proxyDeliveryActivities<AccountMessageActivities>([AccountMessageActivityErrors.notFound]);

export async function accountMessageWorkflow({ messageId }: AccountMessageWorkflowArgs): Promise<void> {
  const message = entityInbox(accountMessageContract, messageId, {
    readCommitted: (minVersion) => readAccountMessage({ messageId, minVersion }),
  });
  const requested = await message.first();
  if (!requested || requested.sent) return;
  try {
    await deliverAccountMessage.executeWithOptions({ summary: `account message ${requested.kind}` }, [{ messageId }]);
  } catch (err) {
    log.error('ALERT: account message given up after its last delivery attempt', { messageId, kind: requested.kind, error: String(err) });
  }
}
