// A payment workflow test's scene on the time-skipping server and the stack's database: a worker of
// its own (its own task queue, every payment and booking signal delivered there), and a salon with
// an active payment config, a booking and its deposit payment, written as rows.
import crypto from 'node:crypto';
import { stack } from '../../support/stack';
import { createSalon, unique } from '../../support/factories';
import { createActivities } from '../../../activities';
import { FolderMailer } from '../../../integrations/mail/mailer';
import { FolderSmsSender } from '../../../integrations/sms/sms-sender';
import { sealCredentials } from '../../../domain/crypto/credential-cipher';
import { paymentConfigBinding } from '../../../domain/payments/payment-config.service';
import type { EntitySignaller } from '../../../domain/workflow-signals/entity-signaller';
import type { PaymentProviders } from '../../../domain/payments/payment-provider';
import { paymentContract } from '../../../domain/payments/payment-events.rules';
import { bookingContract } from '../../../domain/booking/booking-events.rules';
import type { paymentWorkflow } from '../../../workflows/payments/payment.workflow';
import type { TenantSettings } from '../../../domain/tenant/tenant-settings.rules';
import { bookingHooks } from '../../../composition/domain-hooks';
import type { BookingHooks } from '../../../domain/booking/booking-hooks';
import { bookingLinkConfig } from '../../../composition/compose';
import { platformWorker, testServerSignaller, type TimeSkipping } from './time-skipping';
import { startVippsSandbox, type VippsSandbox } from '../../../devstack/vipps-sandbox-server';
import { createPaymentProviders } from '../../../integrations/payments/providers';
import { receiveWebhook } from '../../../domain/payments/payment.service';
import type { PaymentDeps } from '../../../domain/payments/payment-change';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Runs `scenario` with a worker of its own; every signal (payment and booking) goes to its task queue. */
export async function withPaymentWorker(
  t: TimeSkipping,
  scenario: (signaller: EntitySignaller) => Promise<void>,
  options: { providers?: PaymentProviders; outbox?: string; bookingHooks?: BookingHooks } = {},
): Promise<void> {
  const { platform, config } = await stack();
  const taskQueue = unique('payment-wf');
  const signaller = testServerSignaller(t.env, taskQueue);
  const outbox = options.outbox ?? 'payment-wf';
  const activities = createActivities({
    knex: platform.knex,
    mailer: new FolderMailer(`${config.dataDir}/mail-${outbox}`),
    sms: new FolderSmsSender(`${config.dataDir}/sms-${outbox}`),
    payments: {
      signaller,
      providers: options.providers ?? platform.deps.paymentProviders!,
      keyring: config.credentialKeys,
      manageLinkKey: config.keys.manageLink,
      bookingHooks: options.bookingHooks ?? bookingHooks,
    },
    links: bookingLinkConfig(config),
  });
  const worker = await platformWorker(t, { taskQueue, activities });
  await worker.runUntil(scenario(signaller));
}

export interface DepositScene {
  tenantId: string;
  configId: string;
  booking: { id: string; contactPhone: string; startTime: Date };
  payment: { id: string; tenantId: string; providerSessionId: string | null };
}

export interface DepositBookingOptions {
  provider: 'sandbox' | 'vipps';
  credentials: Record<string, string>;
  bookingStatus: string;
  startsInMs?: number;
  settings?: Partial<TenantSettings>;
  depositStatus: string;
}

/**
 * A salon whose active config is `provider` (MANUAL capture) with deposits of 20 %, and a 650 kr
 * booking `startsInMs` from the server's now (5 days unless said) in `depositStatus`.
 */
export async function seedDepositBooking(t: TimeSkipping, opts: DepositBookingOptions): Promise<Omit<DepositScene, 'payment'>> {
  const { platform, config } = await stack();
  const knex = platform.knex;
  const { tenant } = await createSalon({ settings: { depositEnabled: true, depositType: 'percentage', depositValue: 20, ...opts.settings } });
  const configId = crypto.randomUUID();
  const sealed = sealCredentials(config.credentialKeys, opts.credentials, paymentConfigBinding({ tenantId: tenant.id, id: configId }));
  await knex('payment_configs').insert({
    id: configId,
    tenantId: tenant.id,
    provider: opts.provider,
    displayName: opts.provider,
    captureMode: 'MANUAL',
    isActive: true,
    credentialsSealed: sealed.sealed,
    keyVersion: sealed.keyVersion,
  });
  const [service] = await knex('services').insert({ tenantId: tenant.id, name: 'Dameklipp', duration: 60, price: 65000, currency: 'NOK' }).returning('*');
  const [resource] = await knex('resources').insert({ tenantId: tenant.id, name: 'Ola' }).returning('*');
  const now = await t.env.currentTimeMs();
  const start = new Date(now + (opts.startsInMs ?? 5 * DAY));
  const [booking] = await knex('bookings')
    .insert({
      tenantId: tenant.id,
      resourceId: resource.id,
      startTime: start,
      endTime: new Date(start.getTime() + HOUR),
      status: opts.bookingStatus,
      source: 'ONLINE',
      paymentMode: 'ONLINE',
      totalAmount: 65000,
      depositStatus: opts.depositStatus,
      contactPhone: `+47${crypto.randomInt(40000000, 49999999)}`,
      contactName: 'Kari Nordmann',
      metadata: { displaySnapshot: { timezone: 'Europe/Oslo', currency: 'NOK', locale: 'nb-NO' } },
    })
    .returning('*');
  await knex('booking_items').insert({
    bookingId: booking.id,
    tenantId: tenant.id,
    serviceId: service.id,
    resourceId: resource.id,
    startTime: start,
    endTime: new Date(start.getTime() + HOUR),
    duration: 60,
    price: 65000,
  });
  return { tenantId: tenant.id, configId, booking };
}

/** seedDepositBooking's salon and booking, and its 130 kr deposit payment in `paymentStatus`. */
export async function seedDeposit(
  t: TimeSkipping,
  opts: Omit<DepositBookingOptions, 'depositStatus'> & {
    paymentStatus: string;
    expiresInMs: number | null;
    captureRequested?: boolean;
    providerSessionId?: string | null;
    payment?: Record<string, unknown>;
    depositStatus?: string;
  },
): Promise<DepositScene> {
  const authorized = opts.paymentStatus === 'AUTHORIZED';
  const { tenantId, configId, booking } = await seedDepositBooking(t, {
    ...opts,
    depositStatus: opts.depositStatus ?? (authorized ? 'AUTHORIZED' : 'PENDING'),
  });
  const knex = (await stack()).platform.knex;
  const now = await t.env.currentTimeMs();
  const [payment] = await knex('payments')
    .insert({
      tenantId,
      bookingId: booking.id,
      configId,
      provider: opts.provider,
      intent: 'DEPOSIT',
      captureMode: 'MANUAL',
      status: opts.paymentStatus,
      amount: 13000,
      currency: 'NOK',
      idempotencyKey: unique('pay'),
      providerSessionId: opts.providerSessionId ?? null,
      authorizedAt: authorized ? new Date(now) : null,
      expiresAt: opts.expiresInMs === null ? null : new Date(now + opts.expiresInMs),
      captureRequestedAt: opts.captureRequested ? new Date(now) : null,
      ...opts.payment,
    })
    .returning('*');
  return { tenantId, configId, booking, payment };
}

/** Starts (or signals) the payment's workflow on the worker's queue, as its first change would. */
export async function startPaymentWorkflow(t: TimeSkipping, signaller: EntitySignaller, payment: { id: string; tenantId: string }) {
  await signaller.signal(
    { workflowType: 'paymentWorkflow', workflowId: paymentContract.workflowId(payment.id), startArgs: { paymentId: payment.id, tenantId: payment.tenantId } },
    'paymentEvent',
    { type: 'PaymentAuthorized', entityVersion: 1 },
  );
  return t.env.client.workflow.getHandle<typeof paymentWorkflow>(paymentContract.workflowId(payment.id));
}

/**
 * Ends the scene's workflows that still wait (the payment's, its booking's): on the time-skipping
 * server a timer of a run whose worker is gone would fire in a later test's skip, and its workflow
 * task, which nobody takes, would hold the clock still from then on.
 */
export async function endSceneWorkflows(t: TimeSkipping, scene: { booking: { id: string }; payment?: { id: string } | null }): Promise<void> {
  for (const id of [...(scene.payment ? [paymentContract.workflowId(scene.payment.id)] : []), bookingContract.workflowId(scene.booking.id)]) {
    await t.env.client.workflow
      .getHandle(id)
      .terminate('the test is over')
      .catch(() => undefined);
  }
}

/**
 * A Vipps sandbox of the file's own (mocha hooks start and stop it), the providers that reach it, and
 * the payment services' deps over them: its signed webhooks are received by the platform's webhook
 * service with `deps()`, whose signaller is the running test's (`scene.signaller()`), so they reach
 * the workflows under test; `scene.now`, when given, is the clock the services read.
 */
export function withVippsSandbox(scene: { signaller: () => EntitySignaller | undefined; now?: () => Date }): {
  vipps: VippsSandbox;
  providers: PaymentProviders;
  deps: () => Promise<PaymentDeps>;
} {
  const sandbox = {} as { vipps: VippsSandbox; providers: PaymentProviders; deps: () => Promise<PaymentDeps> };
  sandbox.deps = async () => {
    const { platform, config } = await stack();
    return {
      knex: platform.knex,
      signaller: scene.signaller()!,
      keyring: config.credentialKeys,
      providers: sandbox.providers,
      manageLinkKey: config.keys.manageLink,
      bookingHooks,
      ...(scene.now ? { now: scene.now } : {}),
    };
  };
  before(async () => {
    const { config } = await stack();
    sandbox.vipps = await startVippsSandbox({
      deliver: async (url, body, headers) => {
        const tenantId = new URL(url).pathname.split('/').pop()!;
        await receiveWebhook(await sandbox.deps(), 'vipps', tenantId, { method: 'POST', rawBody: Buffer.from(body), query: {}, headers, search: '' });
        return 200;
      },
    });
    sandbox.providers = createPaymentProviders({ ...config.payments, vipps: { apiUrl: sandbox.vipps.url } });
  });
  after(async () => {
    await sandbox.vipps?.close();
  });
  return sandbox;
}
