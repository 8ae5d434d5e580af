// Data access of account messages (docs/rules/auth.md#account-messages): platform-level rows about
// one account's owner, never returned to a salon; plain rows out, the caller passes the pool or its
// transaction.
import { fn } from 'objection';
import type { Db } from '../../db/db-handle';
import { AccountMessageModel } from '../../db/models/account-message.model';
import { plain, plainOrUndefined, type Row } from '../../db/plain';
import type { AccountMessageKind } from './account-message-events.rules';

export type AccountMessageRow = Omit<Row<AccountMessageModel>, 'kind'> & { kind: AccountMessageKind };

export type NewAccountMessage = Pick<AccountMessageRow, 'kind'> &
  Partial<Pick<AccountMessageRow, 'email' | 'phone' | 'tenantId' | 'tenantSlug' | 'userId' | 'phoneVerificationId' | 'details' | 'createdAt'>>;

export async function insertAccountMessage(db: Db, row: NewAccountMessage): Promise<AccountMessageRow> {
  return plain(
    await AccountMessageModel.query(db)
      .insert({ details: {}, ...row, version: 1 })
      .returning('*'),
  ) as AccountMessageRow;
}

export async function findAccountMessage(db: Db, id: string): Promise<AccountMessageRow | undefined> {
  return plainOrUndefined(await AccountMessageModel.query(db).findById(id)) as AccountMessageRow | undefined;
}

export async function markAccountMessageSent(db: Db, id: string): Promise<void> {
  await AccountMessageModel.query(db).patch({ sentAt: fn.now() }).where({ id }).whereNull('sentAt');
}
