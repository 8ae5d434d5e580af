// The salon is told (docs/rules/front-desk.md#the-salon-is-told): a booking waiting for the salon's
// approval and a cancellation the customer made themselves each become one notice for the front
// desk's list and one e-mail to the owner (unless the salon turned it off), written by the booking's
// workflow; the workflow's history carries ids only.
import { expect } from 'chai';
import { stack } from '../../support/stack';
import { call } from '../../support/http';
import { apiClient, expectError, expectOk } from '../../support/api-client';
import { eventually } from '../../support/eventually';
import { bookingSalon, knex, type BookingSalon } from '../../support/booking-fixtures';
import { bookOnline, depositSalon } from '../../support/payments';
import { workflowSettled, stackTemporalClient } from '../../support/workflow-barriers';
import type { StoredMail } from '../../../integrations/mail/mailer';
import type { TenantSettings } from '../../../domain/tenant/tenant-settings.rules';

async function ownerMails(s: BookingSalon, kind: string): Promise<StoredMail[]> {
  return (await (await stack()).platform.mailer.sentTo(s.owner.email)).filter((m: StoredMail) => m.meta?.kind === kind);
}

async function notices(s: BookingSalon, query: { unread?: boolean } = {}) {
  return expectOk(await (await apiClient(s.owner.token)).GET('/salon-notices', { params: { query } }), 200);
}

async function approvingSalon(settings: Partial<TenantSettings> = {}) {
  return bookingSalon({ settings: { autoConfirm: false, cancellationHours: 0, ...settings } });
}

describe('the front desk: the salon is told (HTTP, the real worker)', function () {
  this.timeout(120_000);
  before(async function () {
    this.timeout(180_000);
    await stack();
  });

  it("when a customer books at a salon that approves its bookings then the owner gets one e-mail and one notice, which the owner marks read once; the workflow's history has no name or phone", async () => {
    const s = await approvingSalon();
    const booked = await bookOnline(s, 3, '10:00');
    const [mail] = await eventually(async () => {
      const m = await ownerMails(s, 'SALON:APPROVAL_NEEDED');
      return m.length ? m : undefined;
    }, "the owner's e-mail");
    expect(mail.subject).to.match(/^Venter på godkjenning: Kari Nordmann/);
    expect(mail.text).to.contain(booked.phone);
    expect(mail.text).to.match(/\/desk$/);
    const page = await notices(s);
    expect(page.meta.total).to.equal(1);
    const [notice] = page.data;
    expect(notice).to.deep.include({ kind: 'APPROVAL_NEEDED', bookingId: booked.id, readAt: null });
    expect(notice.booking).to.deep.include({ status: 'PENDING', customerName: 'Kari Nordmann', services: [await serviceName(s.serviceId)] });
    await workflowSettled(`booking:${booked.id}`);
    expect(await ownerMails(s, 'SALON:APPROVAL_NEEDED')).to.have.length(1);

    const api = await apiClient(s.owner.token);
    const read = expectOk(await api.POST('/salon-notices/{id}/read', { params: { path: { id: notice.id } } }), 200).data;
    expect(read.readAt).to.be.a('string');
    const again = expectOk(await api.POST('/salon-notices/{id}/read', { params: { path: { id: notice.id } } }), 200).data;
    expect(again.readAt).to.equal(read.readAt);
    expect((await notices(s, { unread: true })).meta.total).to.equal(0);

    const history = JSON.stringify((await (await stackTemporalClient()).workflow.getHandle(`booking:${booked.id}`).fetchHistory()).events);
    expect(history).to.not.contain('Kari Nordmann');
    expect(history).to.not.contain(booked.phone.slice(3));
  });

  it('when the salon confirms on its own, the booking waits for a deposit, or the salon made it, then nobody is told', async () => {
    const auto = await bookingSalon({ settings: { autoConfirm: true } });
    const autoBooked = await bookOnline(auto, 3, '10:00');
    const deposit = await depositSalon();
    const depositBooked = await bookOnline(deposit, 3, '10:00');
    await workflowSettled(`booking:${autoBooked.id}`);
    await workflowSettled(`booking:${depositBooked.id}`);
    expect((await notices(auto)).data).to.deep.equal([]);
    expect((await notices(deposit)).data).to.deep.equal([]);
    expect(await ownerMails(deposit, 'SALON:APPROVAL_NEEDED')).to.deep.equal([]);
  });

  it("when the customer cancels on their own then the owner is told; when the salon cancels, or records the customer's cancellation, nobody is", async () => {
    const s = await bookingSalon({ settings: { autoConfirm: true, cancellationHours: 0 } });
    const own = await bookOnline(s, 3, '10:00');
    const bySalon = await bookOnline(s, 3, '12:00');
    const recorded = await bookOnline(s, 3, '14:00');
    const cancelled = await call('post', `/public/tenants/${s.tenant.slug}/bookings/${own.id}/cancel`, undefined, { token: own.token });
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    expect((await call('post', `/bookings/${bySalon.id}/cancel`, s.owner.token, { bySalon: true })).status).to.equal(200);
    expect((await call('post', `/bookings/${recorded.id}/cancel`, s.owner.token, { bySalon: false })).status).to.equal(200);
    const [mail] = await eventually(async () => {
      const m = await ownerMails(s, 'SALON:CUSTOMER_CANCELLED');
      return m.length ? m : undefined;
    }, "the owner's e-mail about the cancellation");
    expect(mail.subject).to.match(/^Avbestilt av kunden: Kari Nordmann/);
    for (const id of [own.id, bySalon.id, recorded.id]) await workflowSettled(`booking:${id}`);
    const listed = (await notices(s)).data;
    expect(listed.map((n) => [n.kind, n.bookingId])).to.deep.equal([['CUSTOMER_CANCELLED', own.id]]);
    expect(listed[0].booking.status).to.equal('CANCELLED');
    expect(await ownerMails(s, 'SALON:CUSTOMER_CANCELLED')).to.have.length(1);
  });

  it('when the owner turned the e-mail off then the notice is still listed and no e-mail goes out', async () => {
    const s = await approvingSalon();
    const off = await call('patch', `/tenants/${s.tenant.id}`, s.owner.token, { settings: { notifyOwnerByEmail: false } });
    expect(off.status, JSON.stringify(off.body)).to.equal(200);
    expect(off.body.data.settings.notifyOwnerByEmail).to.equal(false);
    const booked = await bookOnline(s, 3, '10:00');
    await eventually(async () => (await notices(s)).data.length === 1, 'the notice');
    await workflowSettled(`booking:${booked.id}`);
    expect(await ownerMails(s, 'SALON:APPROVAL_NEEDED')).to.deep.equal([]);
  });

  it('when a notice is written then the change cursor counts it for the owner (not for STAFF), and STAFF may not list notices (403)', async () => {
    const s = await approvingSalon();
    const cursor = (await call('get', '/schedule/changes', s.owner.token)).body.data.cursor as string;
    const booked = await bookOnline(s, 3, '10:00');
    await eventually(async () => (await notices(s)).data.length === 1, 'the notice');
    const owner = await call('get', `/schedule/changes?after=${cursor}`, s.owner.token);
    expect(owner.body.data.notices).to.equal(1);
    expect(owner.body.data.bookings.map((b: { id: string }) => b.id)).to.include(booked.id);
    const staff = await call('get', `/schedule/changes?after=${cursor}`, s.staff[0].user.token);
    expect(staff.body.data.notices).to.equal(0);
    expectError(await (await apiClient(s.staff[0].user.token)).GET('/salon-notices', { params: { query: {} } }), 403, 'FORBIDDEN');
  });

  it("when another salon's or an unknown notice is marked read then 404 SALON_NOTICE_NOT_FOUND", async () => {
    const s = await approvingSalon();
    await bookOnline(s, 3, '10:00');
    const [notice] = (await eventually(async () => {
      const n = (await notices(s)).data;
      return n.length ? n : undefined;
    }, 'the notice')) as { id: string }[];
    const other = await approvingSalon();
    expectError(
      await (await apiClient(other.owner.token)).POST('/salon-notices/{id}/read', { params: { path: { id: notice.id } } }),
      404,
      'SALON_NOTICE_NOT_FOUND',
    );
  });
});

async function serviceName(id: string): Promise<string> {
  return (await (await knex())('services').where({ id }).first()).name;
}
