// Customer sign-in for tests: a real ID token from the embedded identity provider (its
// authorization-code flow over HTTP), exchanged at POST /auth/customer/oauth for customer tokens.
import { expect } from 'chai';
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
