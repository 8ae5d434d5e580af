// Side effects of the erasure and retention workflows (docs/rules/personal-data.md): each one re-reads
// the request or the salon and is safe to run again (domain/personal-data/erasure-steps.ts says how
// each step is). The notice is one message a channel, claimed in personal_data_erasure_notifications;
// the outbox copies are the adapters' own (Mailer.forget, SmsSender.forget), on the embedded stack only.
import { ApplicationFailure } from '@temporalio/activity';
import type { DbPool } from '../db/db-handle';
import type { Mailer } from '../domain/notifications/mailer';
import type { SmsSender } from '../domain/notifications/sms-sender';
import type { BookingHooks } from '../domain/booking/booking-hooks';
import type { Clock } from '../domain/time/clock';
import { erasureContract, RETENTION_ENSURED_SIGNAL, RETENTION_WORKFLOW_TYPE, retentionWorkflowId } from '../domain/personal-data/erasure-events.rules';
import * as steps from '../domain/personal-data/erasure-steps';
import { recordRetentionSweep, sweepRetentionBatch } from '../domain/personal-data/retention.service';
import { activeSalonIds } from '../domain/personal-data/retention.repository';
import { claimErasureNotification, markErasureNotificationSent } from '../domain/personal-data/personal-data.repository';
import { RETENTION_BATCH_SIZE } from '../domain/personal-data/erasure-events.rules';
import { activitySignaller } from './activity-signaller';
import { deliverOnce, type Channel } from './message-delivery';
import { committedAt } from './read-committed';
import type { BookingLinkConfig } from './booking-message-links';
import { ErasureActivityErrors, type ErasureActivities, type RetentionActivities } from './personal-data.types';

export interface PersonalDataActivityDeps {
  knex: DbPool;
  mailer: Mailer;
  sms: SmsSender;
  now?: Clock;
  /** the manage-link and waitlist keys (a cancellation and a waitlist removal need them) */
  links?: BookingLinkConfig;
  bookingHooks?: BookingHooks;
  payments?: { bookingHooks: BookingHooks };
}

export function createPersonalDataActivities(deps: PersonalDataActivityDeps): ErasureActivities & RetentionActivities {
  const { knex, mailer, sms } = deps;

  function erasureDeps(): steps.ErasureDeps {
    const bookingHooks = deps.bookingHooks ?? deps.payments?.bookingHooks;
    if (!bookingHooks || !deps.links)
      throw ApplicationFailure.nonRetryable('the worker has no booking hooks or no link keys', ErasureActivityErrors.notConfigured);
    return { knex, signaller: activitySignaller, manageLinkKey: deps.links.manageLinkKey, entryKey: deps.links.entryKey, bookingHooks, now: deps.now };
  }

  async function notice(channel: Channel, { erasureId }: { erasureId: string }) {
    return deliverOnce(
      channel,
      { mailer, sms },
      {
        label: `erasure ${erasureId}`,
        failureType: ErasureActivityErrors.deliveryFailed,
        meta: { erasureId, kind: 'PERSONAL_DATA_ERASED' },
        claim: () => claimErasureNotification(knex, erasureId, channel),
        async compose() {
          const found = await steps.erasureNotice(knex, erasureId);
          // the person is told of their erasure wherever their number is (docs/rules/personal-data.md#erasure)
          return {
            contact: { phone: found?.phone ?? null, email: found?.email ?? null, smsCountry: null },
            message: found?.message ?? { subject: '', text: '' },
          };
        },
        // the notice keeps no copy: it would hold the address the erasure removes
        markSent: (id) => markErasureNotificationSent(knex, id),
      },
    );
  }

  async function erasureExists<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if ((err as { code?: string }).code === 'ERASURE_NOT_FOUND') throw ApplicationFailure.nonRetryable('erasure not found', ErasureActivityErrors.notFound);
      throw err;
    }
  }

  return {
    readErasure: async ({ erasureId, minVersion }) => committedAt(erasureContract, erasureId, minVersion, await steps.erasureSnapshot(knex, erasureId)),
    beginErasure: ({ erasureId }) => erasureExists(() => steps.beginErasure(erasureDeps(), erasureId)),
    cancelErasedBookings: ({ erasureId }) => erasureExists(() => steps.cancelWhatIsToCome(erasureDeps(), erasureId)),
    sendErasureNoticeSms: (request) => erasureExists(() => notice('SMS', request)),
    sendErasureNoticeEmail: (request) => erasureExists(() => notice('EMAIL', request)),
    eraseRemainingData: ({ erasureId }) => erasureExists(() => steps.eraseRemainingData(erasureDeps(), erasureId)),
    removeErasedAccount: ({ erasureId }) => erasureExists(() => steps.removeAccount(erasureDeps(), erasureId)),
    async forgetSentCopies({ erasureId }) {
      const addresses = await erasureExists(() => steps.erasedAddresses(knex, erasureId));
      const removed = ((await mailer.forget?.(addresses)) ?? 0) + ((await sms.forget?.(addresses)) ?? 0);
      await steps.countSentCopiesRemoved(knex, erasureId, removed);
      return removed;
    },
    completeErasure: ({ erasureId }) => erasureExists(() => steps.completeErasure(erasureDeps(), erasureId)),

    async sweepRetentionBatch({ tenantId, at }) {
      const batch = await sweepRetentionBatch(erasureDeps(), tenantId, new Date(at), RETENTION_BATCH_SIZE);
      if (batch.addresses.length) {
        await mailer.forget?.(batch.addresses);
        await sms.forget?.(batch.addresses);
      }
      return { pseudonymised: batch.pseudonymised, accountingRemoved: batch.accountingRemoved, more: batch.more, salonGone: batch.salonGone };
    },
    recordRetentionSweep: ({ tenantId, at, accountingRemoved }) => recordRetentionSweep(knex, tenantId, new Date(at), accountingRemoved),
    async ensureRetentionTimers({ afterId, limit }) {
      const ids = await activeSalonIds(knex, afterId, limit);
      for (const tenantId of ids) {
        await activitySignaller.signal(
          { workflowType: RETENTION_WORKFLOW_TYPE, workflowId: retentionWorkflowId(tenantId), startArgs: { tenantId } },
          RETENTION_ENSURED_SIGNAL,
          { type: 'RetentionEnsured', entityVersion: 0 },
        );
      }
      return { lastId: ids.at(-1) ?? null };
    },
  };
}
