// The salon's retention timer (docs/rules/personal-data.md#retention) on the time-skipping test server
// and the real database: its first sweep pseudonymises the customer whose last visit is past the
// salon's retention and removes the sale kept for the accounts whose period ended, leaving the one
// still inside it, a customer half a day short of the retention and one with a booking to come; a day
// later, as a new run, it takes the one that became due; each sweep reports how many. (The platform
// loop that starts a timer for every active salon runs in test/production/personal-data-topology.test.ts,
// on a database of its own: here it would start one for every salon the run made.) A server of its own.
import { expect } from 'chai';
import crypto from 'node:crypto';
import { stack } from '../support/stack';
import { unique } from '../support/factories';
import { bookingSalon } from '../support/booking-fixtures';
import { eventually } from '../support/eventually';
import { createActivities } from '../../activities';
import { bookingHooks } from '../../composition/domain-hooks';
import { bookingLinkConfig } from '../../composition/compose';
import { RETENTION_WORKFLOW_TYPE, retentionWorkflowId } from '../../domain/personal-data/erasure-events.rules';
import { platformWorker, withOutboxes, withTimeSkipping } from './support/time-skipping';
import type { FolderMailer } from '../../integrations/mail/mailer';
import type { FolderSmsSender } from '../../integrations/sms/sms-sender';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** `months` calendar months before `from`, in UTC, as the retention counts them. */
function monthsBefore(from: number, months: number): Date {
  const d = new Date(from);
  d.setUTCMonth(d.getUTCMonth() - months);
  return d;
}

describe('customer retention workflow (time skipping, real database)', function () {
  this.timeout(300_000);
  const t = withTimeSkipping();
  let sms: FolderSmsSender;
  let mail: FolderMailer;
  withOutboxes('retention-workflow-test', (o) => ({ sms, mail } = o));

  async function worker(taskQueue: string) {
    const { platform } = await stack();
    return platformWorker(t, {
      taskQueue,
      activities: createActivities({ knex: platform.knex, mailer: mail, sms, bookingHooks, links: bookingLinkConfig(platform.deps.config) }),
    });
  }

  it('when a salon keeps customers 12 months then its timer pseudonymises the one past it at once, the one half a day short the next day, and keeps one with a booking to come; sales past their period go, each sweep reports', async () => {
    const db = (await stack()).platform.knex;
    const s = await bookingSalon({ settings: { customerRetentionMonths: 12 } });
    const now = await t.env.currentTimeMs();
    const customer = async (name: string, lastActivity: Date) => {
      const [row] = await db('customers')
        .insert({
          tenantId: s.tenant.id,
          name,
          phone: `+47${crypto.randomInt(40000000, 49999999)}`,
          email: `${unique('r')}@example.test`,
          createdAt: lastActivity,
        })
        .returning('*');
      await db('tenant_customers').insert({
        tenantId: s.tenant.id,
        customerId: row.id,
        visitCount: 1,
        firstVisit: lastActivity,
        lastVisit: lastActivity,
        notes: 'Kort hår',
        createdAt: lastActivity,
      });
      return row as { id: string; phone: string };
    };
    const gone = await customer('Gammel Kunde', monthsBefore(now, 13));
    const almost = await customer('Nesten Kunde', new Date(monthsBefore(now, 12).getTime() + 12 * HOUR));
    const coming = await customer('Kommende Kunde', monthsBefore(now, 14));
    const booking = (fields: Record<string, unknown>) => ({
      tenantId: s.tenant.id,
      resourceId: s.staff[0].resourceId,
      status: 'COMPLETED',
      source: 'ADMIN',
      totalAmount: 50000,
      ...fields,
    });
    await db('bookings').insert(
      booking({ customerId: coming.id, status: 'CONFIRMED', startTime: new Date(now + 5 * DAY), endTime: new Date(now + 5 * DAY + HOUR) }),
    );
    // two sales kept for the accounts without identity: of seven years ago (period over) and of four years ago (still kept)
    const [old] = await db('bookings')
      .insert(
        booking({ startTime: new Date(now - 7 * 365 * DAY), endTime: new Date(now - 7 * 365 * DAY + HOUR), identityRemovedAt: new Date(now - 3 * 365 * DAY) }),
      )
      .returning('id');
    const [kept] = await db('bookings')
      .insert(
        booking({ startTime: new Date(now - 4 * 365 * DAY), endTime: new Date(now - 4 * 365 * DAY + HOUR), identityRemovedAt: new Date(now - 365 * DAY) }),
      )
      .returning('id');
    await db('payments').insert({
      tenantId: s.tenant.id,
      bookingId: old.id,
      intent: 'DEPOSIT',
      captureMode: 'AUTO',
      status: 'CAPTURED',
      amount: 10000,
      capturedAmount: 10000,
      currency: 'NOK',
      idempotencyKey: unique('pay'),
      createdAt: new Date(now - 7 * 365 * DAY),
      capturedAt: new Date(now - 7 * 365 * DAY),
    });

    const taskQueue = unique('retention-wf');
    const w = await worker(taskQueue);
    await w.runUntil(async () => {
      const handle = await t.env.client.workflow.start(RETENTION_WORKFLOW_TYPE, {
        workflowId: retentionWorkflowId(s.tenant.id),
        taskQueue,
        args: [{ tenantId: s.tenant.id }],
      });
      const sweeps = () => db('customer_retention_sweeps').where({ tenantId: s.tenant.id }).orderBy('sweptAt');
      const [first] = await eventually(async () => ((await sweeps()).length === 1 ? sweeps() : undefined), 'the first sweep');
      expect(first).to.include({ retentionMonths: 12, pseudonymised: 1, accountingRemoved: 1 });
      expect(await db('customers').where({ id: gone.id }).first()).to.include({ erased: true, name: 'Slettet kunde', phone: null, email: null, notes: null });
      expect((await db('tenant_customers').where({ customerId: gone.id }).first()).notes).to.equal(null);
      expect(await db('customers').where({ id: almost.id }).first()).to.include({ erased: false, phone: almost.phone });
      expect(await db('customers').where({ id: coming.id }).first()).to.include({ erased: false });
      expect(await db('bookings').where({ id: old.id })).to.deep.equal([]);
      expect(await db('payments').where({ bookingId: old.id })).to.deep.equal([]);
      expect(await db('bookings').where({ id: kept.id })).to.have.length(1);

      // a day later the next sweep, as a new run
      await t.env.sleep(DAY + HOUR);
      const [, second] = await eventually(async () => ((await sweeps()).length === 2 ? sweeps() : undefined), 'the second sweep');
      expect(second).to.include({ pseudonymised: 1, accountingRemoved: 0 });
      expect(new Date(second.sweptAt).getTime() - new Date(first.sweptAt).getTime()).to.be.at.least(DAY);
      expect(await db('customers').where({ id: almost.id }).first()).to.include({ erased: true, phone: null });
      expect(await db('customers').where({ id: coming.id }).first()).to.include({ erased: false });
      const described = await handle.describe();
      expect(described.runId).to.not.equal(handle.firstExecutionRunId);
      await handle.terminate('test over');
    });
  });
});
