// What the account message workflow may ask of the outside world (types only for the workflow).
import type { AccountMessageSnapshot } from '../domain/auth/account-message-events.rules';
import type { DeliveryOutcome } from './booking.types';

export interface AccountMessageActivities {
  /** Committed state of the message, once it has reached `minVersion` (retried until then). */
  readAccountMessage(input: { messageId: string; minVersion: number }): Promise<AccountMessageSnapshot>;
  /** Sends the message (for a password reset: issues the accounts' tokens and mails each once). */
  deliverAccountMessage(input: { messageId: string }): Promise<DeliveryOutcome>;
}

export const AccountMessageActivityErrors = {
  notFound: 'ACCOUNT_MESSAGE_NOT_FOUND',
  deliveryFailed: 'ACCOUNT_MESSAGE_DELIVERY_FAILED',
} as const;
