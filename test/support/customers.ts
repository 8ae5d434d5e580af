// Customer sign-in for tests: a real ID token from the embedded identity provider (its
// authorization-code flow over HTTP), exchanged at POST /auth/customer/oauth for customer tokens.
import crypto from 'node:crypto';
import { expect } from 'chai';
import { eventually } from './eventually';
import { stack } from './stack';
import { call } from './http';
import { unique } from './factories';
import { devSignIn } from '../../devstack/oidc/dev-sign-in';

export interface TestCustomer {
  accountId: string;
  email: string;
  accessToken: string;
  refreshToken: string;
}

export async function idTokenFor(email: string, name?: string): Promise<{ idToken: string; nonce: string }> {
  const { idp } = await stack();
  return devSignIn(idp, { email, name });
}

export async function signInCustomer(fields: { email?: string; name?: string } = {}): Promise<TestCustomer> {
  const email = fields.email ?? `${unique('kunde')}@example.test`;
  const { idToken, nonce } = await idTokenFor(email, fields.name ?? 'Kari Nordmann');
  const res = await call('post', '/auth/customer/oauth', undefined, { idToken, nonce });
  expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201]);
  return { accountId: res.body.data.customer.id, email, accessToken: res.body.data.accessToken, refreshToken: res.body.data.refreshToken };
}

/** A phone number no other test uses (the hourly code limits count per number). */
export function uniquePhone(): string {
  return `+47 4${String(crypto.randomInt(0, 10_000_000)).padStart(7, '0')}`;
}

/** The code of the latest phone-verification SMS to `phone`, once the worker sent it. */
export async function phoneCodeSentTo(phone: string, after = 0): Promise<string> {
  const { sms } = await stack();
  const normalised = phone.replace(/[\s\-.()]/g, '');
  const sent = await eventually(async () => {
    const codes = (await sms.sentTo(normalised)).filter((m) => m.meta?.kind === 'PHONE_CODE');
    return codes.length > after ? codes : undefined;
  }, `the phone code SMS to ${phone}`);
  return sent.at(-1)!.meta!.code as string;
}

/** Proves `phone` on the account with the one-time SMS code, as a customer does (docs/rules/customers.md#verifying-a-phone). */
export async function provePhone(customer: TestCustomer, phone: string): Promise<void> {
  const { sms } = await stack();
  const before = (await sms.sentTo(phone.replace(/[\s\-.()]/g, ''))).filter((m) => m.meta?.kind === 'PHONE_CODE').length;
  const started = await call('post', '/customer/me/phone-verifications', customer.accessToken, { phone });
  expect(started.status, JSON.stringify(started.body)).to.equal(201);
  const code = await phoneCodeSentTo(phone, before);
  const confirmed = await call('post', '/customer/me/phone-verifications/confirm', customer.accessToken, { phone, code });
  expect(confirmed.status, JSON.stringify(confirmed.body)).to.equal(200);
}

/** A signed-in customer who has proven a phone of their own (E.164), so the salon records with it are theirs (docs/rules/customers.md#linking-an-account). */
export async function signInWithProvenPhone(fields: { email?: string; name?: string } = {}): Promise<TestCustomer & { phone: string }> {
  const customer = await signInCustomer(fields);
  const phone = uniquePhone().replace(/\s/g, '');
  await provePhone(customer, phone);
  return { ...customer, phone };
}
