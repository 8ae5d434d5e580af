// A waitlist entry's own timeline (docs/rules/waitlist.md#workflows) on the time-skipping test
// server and the real database. A server of its own: skipping days here must not meet the timers
// other files' workflows left behind on task queues nobody polls any more.
import { expect } from 'chai';
import crypto from 'node:crypto';
import { stack } from '../support/stack';
import { unique } from '../support/factories';
import { bookingSalon, localDay } from '../support/booking-fixtures';
import { createActivities } from '../../activities';
import { tenantById } from '../../domain/tenant/tenant-context';
import { joinWaitlist, leaveWaitlist } from '../../domain/waitlist/waitlist.service';
import { waitlistEntryContract } from '../../domain/waitlist/waitlist-events.rules';
import { platformWorker, testServerSignaller, withOutboxes, withTimeSkipping } from './support/time-skipping';
import type { FolderMailer } from '../../integrations/mail/mailer';
import type { FolderSmsSender } from '../../integrations/sms/sms-sender';
import { bookingLinkConfig } from '../../composition/compose';

const HOUR = 60 * 60 * 1000;

describe('waitlist entry workflow (time skipping, real database)', function () {
  this.timeout(180_000);
  const t = withTimeSkipping();
  let sms: FolderSmsSender;
  let mail: FolderMailer;

  withOutboxes('waitlist-entry-workflow-test', (o) => ({ sms, mail } = o));

  it('when its last date ends while it still waits then it is EXPIRED by its own timer, not a day earlier; a left entry ends at once', async () => {
    const { platform } = await stack();
    const s = await bookingSalon();
    const tenant = await tenantById(platform.knex, s.tenant.id);
    const taskQueue = unique('waitlist-entry-wf');
    const deps = { knex: platform.knex, signaller: testServerSignaller(t.env, taskQueue), entryKey: platform.deps.config.keys.waitlistEntry };
    const phone = () => `+47${crypto.randomInt(40000000, 49999999)}`;
    const waiting = await joinWaitlist(deps, tenant, {
      serviceIds: [s.serviceId],
      fromDate: localDay(0),
      toDate: localDay(2),
      customer: { name: 'Frida', phone: phone() },
    });
    const left = await joinWaitlist(deps, tenant, {
      serviceIds: [s.serviceId],
      fromDate: localDay(0),
      toDate: localDay(30),
      customer: { name: 'Gro', phone: phone() },
    });
    const status = async (id: string) => (await platform.knex('waitlist_entries').where({ id }).first()) as { status: string; version: number };
    const worker = await platformWorker(t, {
      taskQueue,
      activities: createActivities({
        knex: platform.knex,
        mailer: mail,
        sms,
        links: {
          ...bookingLinkConfig(platform.deps.config),
          publicBaseUrl: 'https://booking.example.test',
          platformDomain: 'salon.test',
          mailFrom: 'Salong <booking@salon.test>',
        },
      }),
    });
    await worker.runUntil(async () => {
      await t.env.sleep(48 * HOUR);
      expect((await status(waiting.id)).status).to.equal('WAITING');
      await leaveWaitlist(deps, tenant, left.id, left.token);
      await t.env.client.workflow.getHandle(waitlistEntryContract.workflowId(left.id)).result();
      await t.env.sleep(26 * HOUR);
      await t.env.client.workflow.getHandle(waitlistEntryContract.workflowId(waiting.id)).result();
      expect(await status(waiting.id)).to.include({ status: 'EXPIRED', version: 2 });
      expect((await status(left.id)).status).to.equal('LEFT');
    });
  });
});
