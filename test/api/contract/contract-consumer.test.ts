// A consumer of the contract: one operation of every tag of openapi.yaml, called through the client
// generated from it (test/support/api-client.ts, docs/api/README.md#generating-a-client) against the
// real app. The paths, parameters, bodies and answers below are typed by the contract, so a change
// to it that would break a consumer's code stops `npm test` at its build; the calls show that the
// api answers what the contract says. A new tag needs its operation here (the last test says so).
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { expect } from 'chai';
import YAML from 'yaml';
import { apiClient, expectOk, type Api } from '../../support/api-client';
import { createAdmin, unique } from '../../support/factories';
import { at, bookingSalon, localDay, type BookingSalon } from '../../support/booking-fixtures';
import { idTokenFor } from '../../support/customers';
import { testConfig } from '../../support/stack';

/** The operation each tag is consumed through here. */
const OPERATION_OF_TAG: Record<string, string> = {
  operations: 'getHealth',
  auth: 'signInUser',
  tenants: 'getMyTenant',
  resources: 'listResources',
  services: 'createService',
  taxes: 'createTax',
  customers: 'createCustomer',
  bookings: 'getAvailability',
  public: 'listPublicServices',
  loyalty: 'createLoyaltyCard',
  'customer-accounts': 'signInCustomer',
  impersonation: 'listImpersonationSessions',
  payments: 'listPaymentConfigs',
  platform: 'getPlatformSettings',
  billing: 'listPublicPlans',
  waitlist: 'createWaitlistEntry',
  uploads: 'createPresignedUpload',
  series: 'createSeries',
  'personal-data': 'getCustomerPersonalData',
};

interface ContractOperation {
  operationId?: string;
  tags?: string[];
}
const contract = YAML.parse(fs.readFileSync(path.join(__dirname, '../../../openapi.yaml'), 'utf8')) as {
  tags: { name: string }[];
  paths: Record<string, Record<string, ContractOperation>>;
};

/** The contract's operation at `METHOD path` is the one this file consumes for `tag`. */
function consumes(tag: string, method: 'GET' | 'POST', route: string): void {
  const operation = contract.paths[route]?.[method.toLowerCase()];
  expect(operation?.operationId, `${method} ${route}`).to.equal(OPERATION_OF_TAG[tag]);
  expect(operation?.tags, `${method} ${route}`).to.include(tag);
}

describe('a consumer of the contract: one operation of every tag through the generated client', () => {
  let salon: BookingSalon;
  let owner: Api;
  let anonymous: Api;

  before(async () => {
    salon = await bookingSalon();
    owner = await apiClient(salon.owner.token);
    anonymous = await apiClient();
  });

  it('operations: getHealth says every dependency is up', async () => {
    consumes('operations', 'GET', '/health');
    const health = expectOk(await anonymous.GET('/health'), 200);
    expect(health.data.status).to.equal('ok');
  });

  it('auth: signInUser gives the platform admin a token pair', async () => {
    consumes('auth', 'POST', '/auth/login');
    const { adminEmail, adminPassword } = testConfig();
    const signedIn = expectOk(await anonymous.POST('/auth/login', { body: { email: adminEmail, password: adminPassword } }), 200);
    expect(signedIn.data.user.role).to.equal('ADMIN');
    expect(signedIn.data.accessToken).to.be.a('string');
  });

  it("tenants: getMyTenant answers the owner's salon", async () => {
    consumes('tenants', 'GET', '/tenants/me');
    const mine = expectOk(await owner.GET('/tenants/me'), 200);
    expect(mine.data).to.include({ id: salon.tenant.id, slug: salon.tenant.slug });
  });

  it('resources: listResources lists the staff', async () => {
    consumes('resources', 'GET', '/resources');
    const resources = expectOk(await owner.GET('/resources'), 200);
    expect(resources.data.map((r) => r.id)).to.include(salon.staff[0].resourceId);
  });

  it('services: createService adds a service in the salon currency', async () => {
    consumes('services', 'POST', '/services');
    const created = expectOk(await owner.POST('/services', { body: { name: 'Dameklipp', duration: 45, price: 59900 } }), 201);
    expect(created.data).to.include({ name: 'Dameklipp', duration: 45, price: 59900, currency: 'NOK' });
  });

  it('taxes: createTax adds a tax', async () => {
    consumes('taxes', 'POST', '/taxes');
    const created = expectOk(await owner.POST('/taxes', { body: { name: 'MVA', rate: 25 } }), 201);
    expect(created.data).to.include({ name: 'MVA', rate: 25 });
  });

  it('customers: createCustomer registers a customer by phone', async () => {
    consumes('customers', 'POST', '/customers');
    const phone = `+47${crypto.randomInt(40000000, 49999999)}`;
    const created = expectOk(await owner.POST('/customers', { body: { name: 'Kari Kunde', phone } }), 201);
    expect(created.data).to.include({ name: 'Kari Kunde', phone });
  });

  it('bookings: getAvailability answers free slot starts for a service on a date', async () => {
    consumes('bookings', 'GET', '/availability');
    const free = expectOk(await owner.GET('/availability', { params: { query: { date: localDay(3), serviceId: salon.serviceId } } }), 200);
    expect(free.data.slots.length).to.be.greaterThan(0);
  });

  it('public: listPublicServices shows the catalogue to anyone', async () => {
    consumes('public', 'GET', '/public/tenants/{slug}/services');
    const catalogue = expectOk(await anonymous.GET('/public/tenants/{slug}/services', { params: { path: { slug: salon.tenant.slug } } }), 200);
    expect(catalogue.data.flatMap((group) => group.services.map((s) => s.id))).to.include(salon.serviceId);
  });

  it('loyalty: createLoyaltyCard creates a visit card', async () => {
    consumes('loyalty', 'POST', '/loyalty-cards');
    const card = expectOk(
      await owner.POST('/loyalty-cards', {
        body: { name: 'Klippekort', type: 'VISIT_BASED', requiredStamps: 10, rewardType: 'FREE_SERVICE', rewardValue: 50000 },
      }),
      201,
    );
    expect(card.data).to.include({ name: 'Klippekort', type: 'VISIT_BASED' });
  });

  it('customer-accounts: signInCustomer exchanges an ID token of the identity provider for customer tokens', async () => {
    consumes('customer-accounts', 'POST', '/auth/customer/oauth');
    const email = `${unique('kunde')}@example.test`;
    const signedIn = expectOk(await anonymous.POST('/auth/customer/oauth', { body: await idTokenFor(email, 'Kari Nordmann') }), 201);
    expect(signedIn.data.customer.email).to.equal(email);
    expect(signedIn.data.accessToken).to.be.a('string');
  });

  it('impersonation: listImpersonationSessions is readable by the platform admin', async () => {
    consumes('impersonation', 'GET', '/superadmin/impersonate/sessions');
    const admin = await apiClient((await createAdmin()).token);
    const sessions = expectOk(await admin.GET('/superadmin/impersonate/sessions'), 200);
    expect(sessions.data).to.be.an('array');
  });

  it('payments: listPaymentConfigs is empty for a new salon', async () => {
    consumes('payments', 'GET', '/admin/payment-configs');
    const configs = expectOk(await owner.GET('/admin/payment-configs'), 200);
    expect(configs.data).to.deep.equal([]);
  });

  it('platform: getPlatformSettings says which booking page is served', async () => {
    consumes('platform', 'GET', '/superadmin/platform-settings');
    const admin = await apiClient((await createAdmin()).token);
    const settings = expectOk(await admin.GET('/superadmin/platform-settings'), 200);
    expect(settings.data.bookingUiVersion).to.be.oneOf(['v1', 'v2']);
  });

  it('billing: listPublicPlans shows the published plans', async () => {
    consumes('billing', 'GET', '/public/plans');
    const plans = expectOk(await anonymous.GET('/public/plans'), 200);
    expect(plans.data).to.be.an('array');
  });

  it('waitlist: createWaitlistEntry puts a caller on the waitlist', async () => {
    consumes('waitlist', 'POST', '/waitlist');
    const phone = `+47${crypto.randomInt(40000000, 49999999)}`;
    const entry = expectOk(
      await owner.POST('/waitlist', {
        body: { serviceIds: [salon.serviceId], fromDate: localDay(1), toDate: localDay(7), customer: { name: 'Vera Venter', phone } },
      }),
      201,
    );
    expect(entry.data).to.include({ status: 'WAITING' });
    expect(entry.data.token).to.be.a('string');
  });

  it('uploads: createPresignedUpload answers where to PUT a document', async () => {
    consumes('uploads', 'POST', '/upload/presigned-put');
    const put = expectOk(
      await owner.POST('/upload/presigned-put', { body: { purpose: 'ONBOARDING_DOC', mimeType: 'application/pdf', sizeBytes: 1024, fileName: 'avtale.pdf' } }),
      201,
    );
    expect(put.data.uploadUrl).to.match(/^https?:\/\//);
    expect(put.data.fileId).to.be.a('string');
  });

  it('series: createSeries makes a standing appointment from a booking', async () => {
    consumes('series', 'POST', '/series');
    const phone = `+47${crypto.randomInt(40000000, 49999999)}`;
    const first = expectOk(
      await owner.POST('/bookings', {
        body: {
          startTime: at(localDay(2), '11:00'),
          items: [{ serviceId: salon.serviceId, resourceId: salon.staff[0].resourceId }],
          customer: { name: 'Fast Kunde', phone },
        },
      }),
      201,
    );
    const series = expectOk(await owner.POST('/series', { body: { bookingId: first.data.id, intervalWeeks: 4, occurrenceCount: 3 } }), 201);
    expect(series.data).to.include({
      firstBookingId: first.data.id,
      intervalWeeks: 4,
      occurrenceCount: 3,
      status: 'ACTIVE',
      resourceId: salon.staff[0].resourceId,
    });
    expect(series.data.serviceIds).to.deep.equal([salon.serviceId]);
  });

  it('personal-data: getCustomerPersonalData exports what the salon holds about a customer', async () => {
    consumes('personal-data', 'GET', '/customers/{id}/personal-data');
    const phone = `+47${crypto.randomInt(40000000, 49999999)}`;
    const customer = expectOk(await owner.POST('/customers', { body: { name: 'Eksport Kunde', phone } }), 201);
    const exported = expectOk(await owner.GET('/customers/{id}/personal-data', { params: { path: { id: customer.data.id } } }), 200);
    expect(exported.data.requestedBy).to.equal('SALON');
    expect(exported.data.salons[0].customer).to.include({ id: customer.data.id, name: 'Eksport Kunde', phone });
  });

  it('every tag of the contract is consumed here, through an operation that carries it', () => {
    const tags = contract.tags.map((t) => t.name);
    expect(Object.keys(OPERATION_OF_TAG).sort(), 'a tag without an operation here, or one the contract no longer has').to.deep.equal([...tags].sort());
    const used = new Set(Object.values(contract.paths).flatMap((item) => Object.values(item).flatMap((op) => op.tags ?? [])));
    expect(
      [...used].filter((t) => !tags.includes(t)),
      'tags used by operations but not declared',
    ).to.deep.equal([]);
  });
});
