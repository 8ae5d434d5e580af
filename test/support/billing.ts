// Billing helpers for tests: super-admin calls, the sandbox config made the active one, and a
// salon with a subscription row in a given state.
import { expect } from 'chai';
import { call } from './http';
import { createAdmin, createSalon, tokenFor, unique, type TestSalon, type TestUser } from './factories';
import { stack } from './stack';
import { useSandboxBillingConfig } from '../../devstack/billing-sandbox';

let admin: Promise<TestUser> | undefined;

/** The run's platform admin, with a token of a new sign-in each call: one kept from the start of a long run would have expired (ACCESS_TOKEN_TTL_SECONDS). */
export async function platformAdmin(): Promise<TestUser> {
  admin ??= createAdmin();
  const user = await admin;
  return { ...user, token: await tokenFor(user) };
}

/** Makes the shared sandbox the active billing config (deactivating any other). */
export async function activateSandbox(): Promise<string> {
  const { platform, billingSandbox } = await stack();
  await platform.knex('platform_billing_configs').update({ isActive: false });
  await useSandboxBillingConfig(platform.knex, platform.deps.config.credentialKeys, billingSandbox);
  const row = await platform.knex('platform_billing_configs').where({ provider: 'sandbox', isTest: true }).first('id');
  return row.id;
}

export async function deactivateAllConfigs(): Promise<void> {
  const { platform } = await stack();
  await platform.knex('platform_billing_configs').update({ isActive: false });
}

/** Registers a salon through POST /auth/register (so its trial starts like a real one). */
export async function registerSalon(): Promise<{ tenantId: string; token: string; slug: string; email: string }> {
  const slug = unique('billing');
  const email = `${slug}@example.test`;
  const res = await call('post', '/auth/register', undefined, { salonName: `Salong ${slug}`, slug, email, password: 'secret-password', ownerName: 'Eier' });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return { tenantId: res.body.data.user.tenantId as string, token: res.body.data.accessToken as string, slug, email };
}

/** A salon (factory) with one subscription row written directly, read-model in sync. */
export async function salonWithSubscription(fields: Record<string, unknown>): Promise<TestSalon> {
  const { platform } = await stack();
  const salon = await createSalon();
  const [row] = await platform
    .knex('subscriptions')
    .insert({ tenantId: salon.tenant.id, planKey: 'start', status: 'ACTIVE', ...fields })
    .returning('*');
  await platform
    .knex('tenants')
    .where({ id: salon.tenant.id })
    .update({ subscriptionStatus: row.status, trialEndsAt: row.providerSubId ? null : row.trialEndsAt });
  return salon;
}

/** The checkout id in a sandbox checkout URL. */
export function checkoutIdOf(url: string): string {
  return url.split('/').pop()!;
}
