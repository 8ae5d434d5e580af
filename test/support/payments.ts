// Deposit salons for the payment tests: a booking salon with deposits on and an active sandbox
// payment config (created through the admin routes), and the customer's clicks on the sandbox's
// hosted checkout page.
import crypto from 'node:crypto';
import { expect } from 'chai';
import { call } from './http';
import { stack } from './stack';
import { bookingSalon, localDay, at, knex, type BookingSalon } from './booking-fixtures';
import type { TenantSettings } from '../../domain/tenant/tenant-settings.rules';
import { paymentContract } from '../../domain/payments/payment-events.rules';
import { stackTemporalClient } from './workflow-barriers';
import { vippsSandboxSalesUnit } from '../../devstack/vipps-sandbox-server';

export interface DepositSalon extends BookingSalon {
  configId: string;
  apiKey: string;
}

export function sandboxKey(): string {
  return `sk_test_${crypto.randomBytes(8).toString('hex')}`;
}

export async function depositSalon(
  options: { captureMode?: 'AUTO' | 'MANUAL'; settings?: Partial<TenantSettings>; activate?: boolean } = {},
): Promise<DepositSalon> {
  const salon = await bookingSalon({
    settings: { depositEnabled: true, depositType: 'percentage', depositValue: 20, autoConfirm: false, cancellationHours: 24, ...options.settings },
  });
  const apiKey = sandboxKey();
  const created = await call('post', '/admin/payment-configs', salon.owner.token, {
    provider: 'sandbox',
    displayName: 'Sandbox',
    captureMode: options.captureMode ?? 'AUTO',
    credentials: { apiKey },
  });
  expect(created.status, JSON.stringify(created.body)).to.equal(201);
  if (options.activate !== false) {
    const activated = await call('post', `/admin/payment-configs/${created.body.data.id}/activate`, salon.owner.token);
    expect(activated.status, JSON.stringify(activated.body)).to.equal(200);
  }
  return { ...salon, configId: created.body.data.id, apiKey };
}

/** A deposit salon (fixed 150 kr) whose active config is ePay, the default provider, against the suite's ePay stand-in. */
export async function epaySalon(captureMode: 'AUTO' | 'MANUAL') {
  const { epay } = await stack();
  const salon = await bookingSalon({ settings: { depositEnabled: true, depositType: 'fixed', depositValue: 15000, autoConfirm: false } });
  const credentials = {
    merchantNumber: String(crypto.randomInt(1_000_000, 9_999_999)),
    md5Key: crypto.randomBytes(12).toString('hex'),
    apiPassword: crypto.randomBytes(8).toString('hex'),
  };
  epay.merchant(credentials.merchantNumber, credentials.md5Key, credentials.apiPassword);
  const cfg = await call('post', '/admin/payment-configs', salon.owner.token, { provider: 'epay', displayName: 'ePay', captureMode, credentials });
  expect(cfg.status, JSON.stringify(cfg.body)).to.equal(201);
  const health = await call('post', `/admin/payment-configs/${cfg.body.data.id}/health-check`, salon.owner.token);
  expect(health.body.data.lastHealthCheckStatus).to.equal('OK');
  await call('post', `/admin/payment-configs/${cfg.body.data.id}/activate`, salon.owner.token);
  return { salon, credentials };
}

/** The customer pays in the ePay Payment Window (the stand-in then sends its callback). */
export async function payInEpayWindow(redirectUrl: string): Promise<void> {
  const window = await fetch(redirectUrl);
  expect(window.status, await window.clone().text()).to.equal(200);
  const orderid = new URL(redirectUrl).searchParams.get('orderid')!;
  const paid = await fetch(`${new URL(redirectUrl).origin}/ewindow/pay?orderid=${orderid}`, { method: 'POST', redirect: 'manual' });
  expect(paid.status).to.equal(303);
}

export interface PublicBooking {
  id: string;
  token: string;
  status: string;
  paymentRequired: boolean;
  phone: string;
}

/** A guest booking `days` ahead at `time` (salon-local). */
export async function bookOnline(salon: BookingSalon, days = 3, time = '10:00', customerToken?: string): Promise<PublicBooking> {
  const phone = `+47${crypto.randomInt(40000000, 49999999)}`;
  const res = await call('post', `/public/tenants/${salon.tenant.slug}/bookings`, customerToken, {
    startTime: at(localDay(days), time),
    items: [{ serviceId: salon.serviceId, resourceId: salon.staff[0].resourceId }],
    customer: { name: 'Kari Nordmann', phone },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return { id: res.body.data.id, token: res.body.data.manageToken, status: res.body.data.status, paymentRequired: res.body.data.paymentRequired, phone };
}

/** The customer's payment page data (opens the provider session when the workflow has not yet). */
export async function paymentPage(salon: BookingSalon, booking: PublicBooking) {
  const res = await call('get', `/public/tenants/${salon.tenant.slug}/bookings/${booking.id}/payment?token=${encodeURIComponent(booking.token)}`);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.data as { paymentId: string; status: string; amount: number; redirectUrl: string | null };
}

/** Clicks a button of the sandbox's hosted checkout page: pay, decline, fail or abandon. */
export async function clickCheckout(redirectUrl: string, action: 'pay' | 'decline' | 'fail' | 'abandon'): Promise<void> {
  const page = await fetch(redirectUrl);
  expect(page.status).to.equal(200);
  expect(await page.text()).to.contain(`/${action}`);
  const res = await fetch(`${redirectUrl}/${action}`, { method: 'POST', redirect: 'manual' });
  expect(res.status).to.equal(303);
}

export async function bookingRow(id: string) {
  return (await knex())('bookings').where({ id }).first();
}

export async function paymentRows(bookingId: string) {
  return (await knex())('payments').where({ bookingId }).orderBy('createdAt', 'asc');
}

/** Waits until the payment's workflow has ended (nothing left to wait for): every provider call it was going to make is made. */
export async function paymentWorkflowEnded(paymentId: string): Promise<void> {
  await (await stackTemporalClient()).workflow.getHandle(paymentContract.workflowId(paymentId)).result();
}

/**
 * What the sandbox saw of a session's money: how often it went to CAPTURED, and every capture and
 * refund request (replays and refused ones too) with their distinct idempotency keys.
 */
export async function sandboxMoney(sessionId: string) {
  const session = (await stack()).sandbox.session(sessionId);
  expect(session, `the sandbox session ${sessionId}`).to.not.equal(undefined);
  return { captured: session!.captureCount, captureRequests: session!.requests.capture, refundRequests: session!.requests.refund };
}

/**
 * A deposit salon (fixed 200 kr unless `settings` say otherwise) whose active config is Vipps
 * MobilePay against the suite's sandbox: created, checked (which registers its webhooks) and activated.
 */
export async function vippsSalon(options: { captureMode?: 'AUTO' | 'MANUAL'; settings?: Partial<TenantSettings> } = {}) {
  const salon = await bookingSalon({
    settings: { depositEnabled: true, depositType: 'fixed', depositValue: 20000, autoConfirm: false, cancellationHours: 24, ...options.settings },
  });
  const credentials = vippsSandboxSalesUnit();
  const cfg = await call('post', '/admin/payment-configs', salon.owner.token, {
    provider: 'vipps',
    displayName: 'Vipps MobilePay',
    captureMode: options.captureMode ?? 'MANUAL',
    credentials,
  });
  expect(cfg.status, JSON.stringify(cfg.body)).to.equal(201);
  const activated = await call('post', `/admin/payment-configs/${cfg.body.data.id}/activate`, salon.owner.token);
  expect(activated.status, JSON.stringify(activated.body)).to.equal(200);
  return { salon, credentials, configId: cfg.body.data.id as string };
}

/** The customer approves the payment on the Vipps sandbox's landing page with a test phone (or rejects it). */
export async function answerInVipps(redirectUrl: string, answer: 'approve' | 'reject', phone?: string): Promise<string> {
  const page = await fetch(redirectUrl);
  expect(page.status).to.equal(200);
  const html = await page.text();
  const token = /name="token" value="([^"]+)"/.exec(html)![1];
  const shown = /name="phone" type="tel" value="([^"]*)"/.exec(html)?.[1] ?? '';
  const form = new URLSearchParams({ token, ...(answer === 'approve' ? { phone: phone ?? shown } : {}) });
  const res = await fetch(`${new URL(redirectUrl).origin}/landing/${answer}`, {
    method: 'POST',
    body: form,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    redirect: 'manual',
  });
  expect(res.status).to.equal(303);
  return shown;
}
