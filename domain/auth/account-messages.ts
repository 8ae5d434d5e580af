// Asking for a message to an account's owner (docs/rules/auth.md#account-messages): the request is a
// row, and its workflow (`account-message:<id>`) is told before the transaction commits, like every
// other change (docs/rules/consistency.md#the-change-primitive); the worker sends it.
import type { Db } from '../../db/db-handle';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import { changeEntity } from '../workflow-signals/entity-change';
import { accountMessageContract } from './account-message-events.rules';
import { insertAccountMessage, type AccountMessageRow, type NewAccountMessage } from './account-message.repository';

/** The message row, written and signalled in the caller's transaction (or one of its own). */
export async function requestAccountMessage(db: Db, signaller: EntitySignaller, message: NewAccountMessage): Promise<AccountMessageRow> {
  return db.transaction(async (trx) => {
    const row = await insertAccountMessage(trx, message);
    // an account message belongs to no salon: its workflow is keyed by the message alone
    await changeEntity(signaller, accountMessageContract, {
      write: async () => ({ id: row.id, tenantId: '', version: row.version }),
      event: 'AccountMessageRequested',
    });
    return row;
  });
}
