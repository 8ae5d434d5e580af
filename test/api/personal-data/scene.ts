// A customer with one of every kind of record the platform holds about a person
// (docs/rules/personal-data.md#what-is-kept), made through the HTTP API and the real worker: an
// online booking with the marketing box ticked and its deposit paid, a completed visit (a stamp, a
// voucher, the visit counted, a rebooking nudge), the salon's notes and tags, a waitlist entry, a
// standing appointment, a reply to a reminder, and the messages each of those sent.
import crypto from 'node:crypto';
import { expect } from 'chai';
import { call, http } from '../../support/http';
import { TEST_SMS_REPLY_SECRET } from '../../support/stack';
import { at, knex, localDay } from '../../support/booking-fixtures';
import { eventually } from '../../support/eventually';
import { unique, uniquePhone } from '../../support/factories';
import { clickCheckout, depositSalon, type DepositSalon } from '../../support/payments';
import { visitCard } from '../../support/loyalty';

export interface Person {
  name: string;
  phone: string;
  email: string;
}

export function newPerson(): Person {
  return { name: unique('Petra Persondata'), phone: uniquePhone(), email: `${unique('petra')}@example.test` };
}

/** What a person's name, phone and e-mail look like wherever they may be left behind. */
export function needlesOf(p: Person): string[] {
  return [p.name, p.phone, p.phone.replace(/^\+/, ''), p.email];
}

export interface Everything {
  s: DepositSalon;
  person: Person;
  customerId: string;
  tenantCustomerId: string;
  /** the online booking, still to come, its deposit paid */
  online: { id: string; token: string };
  /** the completed visit */
  visitId: string;
  /** the standing appointment, and its first booking (still to come) */
  seriesId: string;
  seriesBookingId: string;
  entryId: string;
  voucherId: string;
  nudgeId: string;
  paymentId: string;
}

const items = (s: DepositSalon) => [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }];

export async function customerWithEverything(person: Person = newPerson(), salon?: DepositSalon): Promise<Everything> {
  const s = salon ?? (await depositSalon());
  const db = await knex();
  await db('services').where({ id: s.serviceId }).update({ typicalIntervalWeeks: 5 });
  await visitCard(s, { requiredStamps: 1 });

  // an online booking three days ahead, the marketing box ticked, a note, the deposit paid
  const booked = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, {
    startTime: at(localDay(3), '10:00'),
    items: items(s),
    customer: { ...person, notes: 'Allergisk mot ammoniakk' },
    marketingConsent: true,
  });
  expect(booked.status, JSON.stringify(booked.body)).to.equal(201);
  const online = { id: booked.body.data.id as string, token: booked.body.data.manageToken as string };
  const page = await eventually(async () => {
    const res = await call('get', `/public/tenants/${s.tenant.slug}/bookings/${online.id}/payment?token=${encodeURIComponent(online.token)}`);
    return res.body.data?.redirectUrl ? (res.body.data as { paymentId: string; redirectUrl: string }) : undefined;
  }, 'the deposit checkout');
  await clickCheckout(page.redirectUrl, 'pay');
  await eventually(async () => (await db('bookings').where({ id: online.id }).first()).depositStatus === 'PAID', 'the deposit paid');
  const { customerId } = await db('bookings').where({ id: online.id }).first();
  const tenantCustomerId: string = (await db('tenant_customers').where({ tenantId: s.tenant.id, customerId }).first()).id;

  // a visit ten days ago, completed: a stamp, a voucher (one stamp is enough), the visit counted, a nudge
  const visit = await call('post', '/bookings', s.owner.token, { startTime: at(localDay(-10), '12:00'), items: items(s), customerId });
  expect(visit.status, JSON.stringify(visit.body)).to.equal(201);
  for (const to of ['IN_PROGRESS', 'COMPLETED'])
    expect((await call('post', `/bookings/${visit.body.data.id}/status/${to}`, s.owner.token)).status).to.equal(200);
  const voucher = await eventually(() => db('loyalty_vouchers').where({ tenantCustomerId }).first(), 'the voucher of the visit');
  const nudge = await eventually(() => db('rebooking_nudges').where({ customerId }).first(), 'the rebooking nudge of the visit');

  // the salon's notes and tags
  const tagged = await call('patch', `/tenant-customers/${tenantCustomerId}`, s.owner.token, { tags: ['allergi'], notes: 'Ammoniakkfri farge' });
  expect(tagged.status, JSON.stringify(tagged.body)).to.equal(200);

  // a waitlist entry
  const joined = await call('post', `/public/tenants/${s.tenant.slug}/waitlist`, undefined, {
    serviceIds: [s.serviceId],
    fromDate: localDay(1),
    toDate: localDay(7),
    customer: person,
  });
  expect(joined.status, JSON.stringify(joined.body)).to.equal(201);

  // a standing appointment from a booking of theirs five days ahead
  const first = await call('post', '/bookings', s.owner.token, { startTime: at(localDay(5), '14:00'), items: items(s), customerId });
  expect(first.status, JSON.stringify(first.body)).to.equal(201);
  const series = await call('post', '/series', s.owner.token, { bookingId: first.body.data.id, intervalWeeks: 4, occurrenceCount: 2 });
  expect(series.status, JSON.stringify(series.body)).to.equal(201);

  // a reply to the booking's reminder (its message is stamped as the workflow would), answered at once
  await db('booking_notifications').insert({
    bookingId: online.id,
    tenantId: s.tenant.id,
    kind: 'REMINDER',
    channel: 'SMS',
    dedupeKey: `REMINDER:${crypto.randomUUID()}`,
    sentAt: new Date(),
  });
  const form = new URLSearchParams({ number: person.phone.replace(/^\+/, ''), msg: 'Hva betyr dette?', id: crypto.randomUUID(), key: TEST_SMS_REPLY_SECRET });
  const replied = await (await http()).post('/api/webhooks/sms/sveve').set('content-type', 'application/x-www-form-urlencoded').send(form.toString());
  expect(replied.status, JSON.stringify(replied.body)).to.equal(200);

  // the messages those sent: the booking's, the voucher's, the waitlist's
  await eventually(async () => {
    const sent = async (table: string, where: Record<string, string>) => (await db(table).where(where).whereNotNull('sentAt').whereNotNull('text')).length > 0;
    return (
      (await sent('booking_notifications', { bookingId: online.id })) &&
      (await sent('loyalty_voucher_notifications', { voucherId: voucher.id })) &&
      (await sent('waitlist_notifications', { entryId: joined.body.data.id }))
    );
  }, 'the booking, voucher and waitlist messages');

  const payment = await db('payments').where({ bookingId: online.id }).first();
  return {
    s,
    person,
    customerId,
    tenantCustomerId,
    online,
    visitId: visit.body.data.id,
    seriesId: series.body.data.id,
    seriesBookingId: first.body.data.id,
    entryId: joined.body.data.id,
    voucherId: voucher.id,
    nudgeId: nudge.id,
    paymentId: payment.id,
  };
}
