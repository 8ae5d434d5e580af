// Erasure over HTTP with the real worker (docs/rules/personal-data.md#erasure): the owner erases a
// customer who has every kind of record; the request is a workflow that ends COMPLETED with its
// outcome; the bookings still to come are cancelled by the salon (the deposit refunded), the customer
// is told once on each channel and nothing after, and afterwards no table, outbox file or workflow
// history holds their name, phone or e-mail, while the payments stay for the accounts without them and
// the other salon they visit still knows them. Asking again changes nothing. A signed-in customer's
// own erasure cancels as the customer (a late cancellation keeps the deposit) and deletes the account.
import { expect } from 'chai';
import { call } from '../../support/http';
import { stack } from '../../support/stack';
import { at, bookingSalon, knex, localDay } from '../../support/booking-fixtures';
import { eventually } from '../../support/eventually';
import { depositSalon, clickCheckout } from '../../support/payments';
import { provePhone, signInCustomer } from '../../support/customers';
import { stackTemporalClient } from '../../support/workflow-barriers';
import { salonWithSubscription } from '../../support/billing';
import { filesHolding, historyText, mentioned, tablesHolding } from '../../support/personal-data';
import { bookingContract } from '../../../domain/booking/booking-events.rules';
import { paymentContract } from '../../../domain/payments/payment-events.rules';
import { waitlistEntryContract } from '../../../domain/waitlist/waitlist-events.rules';
import { rebookingNudgeContract } from '../../../domain/rebooking/rebooking-events.rules';
import { voucherContract } from '../../../domain/loyalty/voucher-events.rules';
import { erasureContract } from '../../../domain/personal-data/erasure-events.rules';
import { customerWithEverything, needlesOf, newPerson } from './scene';

async function completed(token: string, customerId: string) {
  return eventually(
    async () => {
      const res = await call('get', `/customers/${customerId}/erasure`, token);
      return res.body.data?.status === 'COMPLETED' ? res.body.data : undefined;
    },
    'the erasure to complete',
    60_000,
  );
}

describe('personal data: erasure (HTTP and worker)', function () {
  this.timeout(240_000);

  before(async function () {
    this.timeout(180_000);
    await stack();
  });

  it('when the owner erases a customer who has every kind of record then everything that names them goes, the sales stay for the accounts, the other salon still knows them, and asking again changes nothing', async () => {
    const e = await customerWithEverything();
    const db = await knex();
    const { config } = await stack();
    // the same person at another salon
    const other = await bookingSalon();
    const atOther = await call('post', `/public/tenants/${other.tenant.slug}/bookings`, undefined, {
      startTime: at(localDay(6), '09:00'),
      items: [{ serviceId: other.serviceId, resourceId: other.staff[0].resourceId }],
      customer: e.person,
    });
    expect(atOther.status, JSON.stringify(atOther.body)).to.equal(201);
    // its message is out before the erasure: the outboxes stand in for the providers, whose copies of the person's messages go whichever salon sent them
    await eventually(
      // the customer's two (SMS and e-mail); the salon's owner is told of a booking to approve beside them
      async () =>
        (await db('booking_notifications').where({ bookingId: atOther.body.data.id }).whereNot({ kind: 'SALON_NOTICE' }).whereNotNull('sentAt')).length === 2,
      'the other salon’s messages',
    );

    // before: the person is in the rows and the outboxes the checks below read
    const needles = needlesOf(e.person);
    expect(Object.keys(await tablesHolding(db, needles, other.tenant.id))).to.include.members([
      'customers',
      'bookings',
      'booking_notifications',
      'loyalty_voucher_notifications',
      'waitlist_entries',
      'waitlist_notifications',
      'sms_replies',
    ]);
    expect(filesHolding(config.smsOutboxDir, needles)).to.not.deep.equal([]);

    const asked = await call('post', `/customers/${e.customerId}/erasure`, e.s.owner.token);
    expect(asked.status, JSON.stringify(asked.body)).to.equal(202);
    expect(asked.body.data).to.include({ status: 'REQUESTED', requestedBy: 'SALON' });
    const again = await call('post', `/customers/${e.customerId}/erasure`, e.s.owner.token);
    expect([again.status, again.body.data.id]).to.deep.equal([200, asked.body.data.id]);

    const done = await completed(e.s.owner.token, e.customerId);
    expect(done.outcome).to.include({ bookingsCancelled: 2, waitlistEntriesLeft: 1, seriesEnded: 1 });
    expect(done.outcome.bookingsKeptForAccounts).to.be.at.least(3);
    expect(done.outcome.messagesCleared).to.be.at.least(3);
    expect(done.outcome.noticeSentBy).to.deep.equal(['EMAIL', 'SMS']);
    expect(done.outcome.sentCopiesRemoved).to.be.at.least(2);

    // the record without identity, gone from the lists; it takes no change
    const record = await call('get', `/customers/${e.customerId}`, e.s.owner.token);
    expect(record.body.data).to.include({ name: 'Slettet kunde', phone: null, email: null, notes: null, acceptsRebookingNudges: false });
    expect(record.body.data.erasedAt).to.be.a('string');
    expect((await call('get', `/customers?search=${encodeURIComponent(e.person.name)}`, e.s.owner.token)).body.data).to.deep.equal([]);
    const patched = await call('patch', `/customers/${e.customerId}`, e.s.owner.token, { name: 'Tilbake' });
    expect([patched.status, patched.body.error.code]).to.deep.equal([409, 'CUSTOMER_ERASED']);
    const rebooked = await call('post', '/bookings', e.s.owner.token, {
      startTime: at(localDay(2), '12:00'),
      items: [{ serviceId: e.s.serviceId, resourceId: e.s.staff[0].resourceId }],
      customerId: e.customerId,
    });
    expect([rebooked.status, rebooked.body.error?.code]).to.deep.equal([409, 'CUSTOMER_ERASED']);

    // what was still to come is cancelled by the salon, the deposit refunded; the visit stays
    const online = await db('bookings').where({ id: e.online.id }).first();
    expect(online).to.include({ status: 'CANCELLED', cancelledBy: 'SALON', contactName: null, contactPhone: null, contactEmail: null, notes: null });
    expect(online.identityRemovedAt).to.be.instanceOf(Date);
    expect((await db('bookings').where({ id: e.seriesBookingId }).first()).status).to.equal('CANCELLED');
    expect(await db('bookings').where({ id: e.visitId }).first()).to.include({ status: 'COMPLETED', customerId: e.customerId, customerErased: true });
    const refunded = await eventually(async () => {
      const p = await db('payments').where({ id: e.paymentId }).first();
      return p.refundedAmount > 0 ? p : undefined;
    }, 'the deposit refunded');
    expect(refunded).to.include({ status: 'REFUNDED', bookingId: e.online.id });
    expect(await db('payment_refunds').where({ paymentId: e.paymentId })).to.have.length(1);
    expect(await db('waitlist_entries').where({ id: e.entryId }).first()).to.include({ status: 'LEFT', contactName: '', contactPhone: '', contactEmail: null });
    expect((await db('booking_series').where({ id: e.seriesId }).first()).status).to.equal('ENDED');
    expect(await db('loyalty_vouchers').where({ id: e.voucherId }).first()).to.include({ status: 'CANCELLED', cancelledReason: 'Personal data erased' });
    expect(await db('marketing_consents').where({ customerId: e.customerId })).to.deep.equal([]);

    // told once on each channel, and nothing sent to them after the moment of erasure
    const notices = await db('personal_data_erasure_notifications').where({ erasureId: asked.body.data.id }).orderBy('channel');
    expect(notices.map((n: { channel: string; sentAt: Date | null }) => [n.channel, n.sentAt !== null])).to.deep.equal([
      ['EMAIL', true],
      ['SMS', true],
    ]);
    const bookingIds = (await db('bookings').where({ customerId: e.customerId })).map((b: { id: string }) => b.id);
    const later = await db('booking_notifications').whereIn('bookingId', bookingIds).where('sentAt', '>', asked.body.data.requestedAt);
    expect(later, 'messages sent after the erasure').to.deep.equal([]);

    // no table, outbox file or workflow history names them; the other salon's record stays
    expect(await tablesHolding(db, needles, other.tenant.id)).to.deep.equal({});
    expect(filesHolding(config.smsOutboxDir, needles)).to.deep.equal([]);
    expect(filesHolding(config.mailOutboxDir, needles)).to.deep.equal([]);
    const temporal = await stackTemporalClient();
    for (const workflowId of [
      bookingContract.workflowId(e.online.id),
      bookingContract.workflowId(e.visitId),
      paymentContract.workflowId(e.paymentId),
      waitlistEntryContract.workflowId(e.entryId),
      rebookingNudgeContract.workflowId(e.nudgeId),
      voucherContract.workflowId(e.voucherId),
      erasureContract.workflowId(asked.body.data.id),
    ]) {
      expect(mentioned(await historyText(temporal, workflowId), needles), workflowId).to.deep.equal([]);
    }
    const elsewhere = await db('customers').where({ tenantId: other.tenant.id, phone: e.person.phone }).first();
    expect(elsewhere).to.include({ name: e.person.name, email: e.person.email, erased: false });
    expect(await db('bookings').where({ id: atOther.body.data.id }).first()).to.include({ status: atOther.body.data.status, contactPhone: e.person.phone });

    // the export now shows what is kept: the sales without identity, the messages without address and text
    const exported = (await call('get', `/customers/${e.customerId}/personal-data`, e.s.owner.token)).body.data.salons[0];
    expect(exported.customer).to.include({ name: 'Slettet kunde', phone: null });
    expect(exported.bookings.every((b: { contact: { phone: string | null } }) => b.contact.phone === null)).to.equal(true);
    expect(exported.payments.map((p: { id: string }) => p.id)).to.include(e.paymentId);
    expect(exported.messages.every((m: { to: string | null; text: string | null }) => m.to === null && m.text === null)).to.equal(true);
    expect(exported.erasure).to.include({ id: asked.body.data.id, status: 'COMPLETED' });

    // asking once more answers the same request and changes nothing
    const before = await db('personal_data_erasures').where({ id: asked.body.data.id }).first();
    const third = await call('post', `/customers/${e.customerId}/erasure`, e.s.owner.token);
    expect([third.status, third.body.data.id, third.body.data.status]).to.deep.equal([200, asked.body.data.id, 'COMPLETED']);
    expect(await db('personal_data_erasures').where({ id: asked.body.data.id }).first()).to.deep.equal(before);
  });

  it('when a salon whose subscription lapsed erases a customer then it is accepted (202), though its other writes are refused', async () => {
    const s = await salonWithSubscription({ status: 'EXPIRED', expiredAt: new Date() });
    const db = await knex();
    const customer = await db('customers').insert({ tenantId: s.tenant.id, name: 'Gammel Kunde', phone: newPerson().phone }).returning('id');
    expect((await call('post', '/customers', s.owner.token, { name: 'Ny' })).status).to.equal(402);
    const asked = await call('post', `/customers/${customer[0].id}/erasure`, s.owner.token);
    expect(asked.status, JSON.stringify(asked.body)).to.equal(202);
    await completed(s.owner.token, customer[0].id);
  });

  it('when a signed-in customer erases their account then their bookings are cancelled as the customer (inside the salon’s cancellation hours the deposit is kept), every linked salon record and the account go, and they are signed out', async () => {
    const s = await depositSalon({ settings: { cancellationHours: 48 } });
    const plain = await bookingSalon();
    const customer = await signInCustomer();
    const person = newPerson();
    await provePhone(customer, person.phone);
    const db = await knex();
    // a booking tomorrow at the deposit salon (inside its 48 hours: a late cancellation), its deposit paid
    const late = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, customer.accessToken, {
      startTime: at(localDay(1), '10:00'),
      items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
      customer: { name: person.name, phone: person.phone },
    });
    expect(late.status, JSON.stringify(late.body)).to.equal(201);
    const page = await eventually(async () => {
      const res = await call(
        'get',
        `/public/tenants/${s.tenant.slug}/bookings/${late.body.data.id}/payment?token=${encodeURIComponent(late.body.data.manageToken)}`,
      );
      return res.body.data?.redirectUrl ? res.body.data : undefined;
    }, 'the checkout');
    await clickCheckout(page.redirectUrl, 'pay');
    await eventually(async () => (await db('bookings').where({ id: late.body.data.id }).first()).depositStatus === 'PAID', 'the deposit paid');
    const elsewhere = await call('post', `/public/tenants/${plain.tenant.slug}/bookings`, customer.accessToken, {
      startTime: at(localDay(4), '11:00'),
      items: [{ serviceId: plain.serviceId, resourceId: plain.staff[0].resourceId }],
      customer: { name: person.name, phone: person.phone },
    });
    expect(elsewhere.status, JSON.stringify(elsewhere.body)).to.equal(201);
    const records = await db('customers').where({ accountId: customer.accountId });
    expect(records).to.have.length(2);

    const asked = await call('post', '/customer/me/erasure', customer.accessToken);
    expect(asked.status, JSON.stringify(asked.body)).to.equal(202);
    expect(asked.body.data).to.include({ requestedBy: 'CUSTOMER', status: 'REQUESTED' });
    const done = await eventually(
      async () => {
        const row = await db('personal_data_erasures').where({ id: asked.body.data.id }).first();
        return row.status === 'COMPLETED' ? row : undefined;
      },
      'the account erasure',
      60_000,
    );
    expect(done.outcome).to.include({ salonRecords: 2 });
    expect(done.noticePhone).to.equal(null);

    // cancelled as the customer: inside the 48 hours the salon keeps the deposit; the other one is simply cancelled
    expect(await db('bookings').where({ id: late.body.data.id }).first()).to.include({
      status: 'CANCELLED',
      cancelledBy: 'CUSTOMER',
      depositStatus: 'FORFEIT',
    });
    expect(await db('bookings').where({ id: elsewhere.body.data.id }).first()).to.include({ status: 'CANCELLED', cancelledBy: 'CUSTOMER' });
    // every salon's record erased at the customer's request, and the account gone: signed out
    const children = await db('personal_data_erasures').where({ parentId: asked.body.data.id });
    expect(children.map((c: { requestedBy: string; status: string }) => `${c.requestedBy}/${c.status}`)).to.deep.equal([
      'CUSTOMER/COMPLETED',
      'CUSTOMER/COMPLETED',
    ]);
    for (const r of records) expect(await db('customers').where({ id: r.id }).first()).to.include({ erased: true, accountId: null, phone: null });
    expect(await db('customer_accounts').where({ id: customer.accountId })).to.deep.equal([]);
    expect((await call('get', '/customer/me', customer.accessToken)).status).to.equal(401);
    expect(await tablesHolding(db, [...needlesOf(person), customer.email])).to.deep.equal({});
  });
});
