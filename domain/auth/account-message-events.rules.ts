// The account message's workflow contract (docs/rules/consistency.md#the-entity-contract): one
// workflow per message to an account's owner (docs/rules/auth.md#account-messages),
// `accountMessageWorkflow` with id `account-message:<id>`, told by the signal `accountMessageEvent`
// that the request committed, reading the message as an AccountMessageSnapshot. Pure: imported by
// the services, the activities and the workflow.
import { entityContract, type EntityEvent } from '../workflow-signals/entity-contract.rules';

export type AccountMessageKind = 'PASSWORD_RESET' | 'CONTACT_CHANGED' | 'PHONE_CODE';

export type AccountMessageEventType = 'AccountMessageRequested';

export type AccountMessageEvent = EntityEvent<AccountMessageEventType>;

export interface AccountMessageWorkflowArgs {
  messageId: string;
}

export interface AccountMessageSnapshot {
  id: string;
  version: number;
  kind: AccountMessageKind;
  sent: boolean;
}

export const accountMessageContract = entityContract<AccountMessageEventType, AccountMessageWorkflowArgs, AccountMessageSnapshot>({
  entity: 'accountMessage',
  idPrefix: 'account-message',
  startArgs: (m) => ({ messageId: m.id }),
});
