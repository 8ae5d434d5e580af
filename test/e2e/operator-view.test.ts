// What an operator sees of a booking in Temporal (docs/rules/operations.md#what-the-web-ui-shows),
// read the way the Web UI and `temporal workflow list` read it, through the Temporal client on the
// stack's official dev server: the salon's open bookings found by search attributes (salon, status,
// start time), and in a booking's history each message by what it is and its channel, each timer
// by what it waits for. Ids, statuses and times only: no name, phone or e-mail of the customer.
import crypto from 'node:crypto';
import { expect } from 'chai';
import type { Client } from '@temporalio/client';
import { call } from '../support/http';
import { bookingSalon, localDay, at } from '../support/booking-fixtures';
import { eventually } from '../support/eventually';
import { stackTemporalClient, workflowSettled } from '../support/workflow-barriers';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** The summaries the history shows, by event type: what the Web UI prints beside each event. */
async function summaries(temporal: Client, workflowId: string): Promise<{ type: string; summary: string }[]> {
  const events = (await temporal.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const converter = temporal.options.loadedDataConverter.payloadConverter;
  return events
    .filter((e) => e.userMetadata?.summary)
    .map((e) => ({
      type: e.markerRecordedEventAttributes
        ? 'local activity'
        : e.timerStartedEventAttributes
          ? 'timer'
          : e.activityTaskScheduledEventAttributes
            ? 'activity'
            : 'other',
      summary: converter.fromPayload<string>(e.userMetadata!.summary!),
    }));
}

/** The ids of the salon's bookings the query finds, as `temporal workflow list --query` lists them. */
async function listed(temporal: Client, query: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const run of temporal.workflow.list({ query })) ids.push(run.workflowId);
  return ids.sort();
}

describe("what an operator sees of a booking's workflow", function () {
  this.timeout(90_000);

  it("when a salon's bookings are confirmed, moved and cancelled then search attributes find its open ones by status and start time, and the history names each message, its channel and each timer", async () => {
    const temporal = await stackTemporalClient();
    const salon = await bookingSalon({ settings: { autoConfirm: true } });
    const other = await bookingSalon({ settings: { autoConfirm: true } });
    const book = async (s: typeof salon, time: string) => {
      const res = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, {
        startTime: at(localDay(4), time),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
        customer: { name: 'Kari Nordmann', phone: `+47${crypto.randomInt(40000000, 49999999)}`, email: `kari-${crypto.randomUUID()}@example.test` },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body.data as Json;
    };
    const moved = await book(salon, '10:00');
    const cancelled = await book(salon, '12:00');
    const elsewhere = await book(other, '10:00');
    const newStart = at(localDay(4), '14:00');
    const move = await call('patch', `/bookings/${moved.id}`, salon.owner.token, { startTime: newStart });
    expect(move.status, JSON.stringify(move.body)).to.equal(200);
    expect((await call('post', `/bookings/${cancelled.id}/cancel`, salon.owner.token, { bySalon: true })).status).to.equal(200);
    for (const b of [moved, cancelled, elsewhere]) await workflowSettled(`booking:${b.id}`);

    // the salon's bookings, and its open (still ahead) ones with their start time
    const ofSalon = `TenantId = '${salon.tenant.id}'`;
    await eventually(async () => ((await listed(temporal, ofSalon)).length === 2 ? true : undefined), "the salon's two bookings in visibility");
    expect(await listed(temporal, ofSalon)).to.deep.equal([`booking:${moved.id}`, `booking:${cancelled.id}`].sort());
    const open = `${ofSalon} AND BookingStatus IN ('PENDING', 'CONFIRMED') AND BookingStartTime > '${new Date().toISOString()}'`;
    expect(await listed(temporal, open)).to.deep.equal([`booking:${moved.id}`]);
    expect(await listed(temporal, `${ofSalon} AND BookingStatus = 'CANCELLED'`)).to.deep.equal([`booking:${cancelled.id}`]);
    const aroundNewStart = (ms: number) => new Date(Date.parse(newStart) + ms).toISOString();
    expect(await listed(temporal, `${ofSalon} AND BookingStartTime BETWEEN '${aroundNewStart(-60_000)}' AND '${aroundNewStart(60_000)}'`)).to.deep.equal([
      `booking:${moved.id}`,
    ]);
    const described = await temporal.workflow.getHandle(`booking:${moved.id}`).describe();
    expect(
      described.typedSearchAttributes.getAll().map((p) => [p.key.name, p.value instanceof Date ? p.value.toISOString() : p.value]),
    ).to.deep.include.members([
      ['TenantId', salon.tenant.id],
      ['BookingStatus', 'CONFIRMED'],
      ['BookingStartTime', new Date(newStart).toISOString()],
    ]);

    // each message by what it is and its channel, each timer by what it waits for
    const movedHistory = await summaries(temporal, `booking:${moved.id}`);
    expect(movedHistory.filter((e) => e.type === 'local activity').map((e) => e.summary)).to.include.members([
      'booking CONFIRMED by SMS',
      'booking CONFIRMED by e-mail',
      `booking RESCHEDULED:${new Date(newStart).toISOString()} by SMS`,
      `booking RESCHEDULED:${new Date(newStart).toISOString()} by e-mail`,
    ]);
    expect(movedHistory.filter((e) => e.type === 'timer').map((e) => e.summary)).to.include(`reminder of the start ${new Date(newStart).toISOString()}`);
    const cancelledHistory = await summaries(temporal, `booking:${cancelled.id}`);
    expect(cancelledHistory.map((e) => e.summary)).to.include.members(['booking CANCELLED by SMS', 'booking CANCELLED by e-mail']);
    // ids and kinds only: nothing the customer typed
    expect(JSON.stringify([...movedHistory, ...cancelledHistory])).not.to.match(/Kari|Nordmann|example\.test|\+47/);
  });
});
