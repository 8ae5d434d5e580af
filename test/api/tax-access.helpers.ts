// Shared helpers for the taxes/accounting and customers API tests: every role (docs/rules/auth.md#roles) as a
// caller, including ADMIN acting inside a tenant with x-tenant-id and a customer token.
import jwt from 'jsonwebtoken';
import type { Response } from 'supertest';
import { http, type Method } from '../support/http';
import { createAdmin, createSalon, createUser, type TestSalon, type TestUser } from '../support/factories';
import { stack } from '../support/stack';

export type Caller = 'ADMIN' | 'OWNER' | 'STAFF' | 'NONE' | 'CUSTOMER';

export interface World {
  salon: TestSalon;
  admin: TestUser;
  staff: TestUser;
  customerToken: string;
}

export async function world(): Promise<World> {
  const salon = await createSalon();
  const admin = await createAdmin();
  const staff = await createUser(salon.tenant.id, 'STAFF');
  const { config } = await stack();
  const customerToken = jwt.sign({ sub: salon.owner.id, tenantId: salon.tenant.id, type: 'customer', tv: 0 }, config.keys.accessToken, { expiresIn: 600 });
  return { salon, admin, staff, customerToken };
}

/** Calls as the given role; ADMIN sends x-tenant-id of the salon (docs/rules/auth.md#tenant-resolution). */
export async function as(w: World, who: Caller, method: Method, path: string, body?: unknown): Promise<Response> {
  let req = (await http())[method](`/api${path}`);
  if (who === 'ADMIN') req = req.set('Authorization', `Bearer ${w.admin.token}`).set('x-tenant-id', w.salon.tenant.id);
  if (who === 'OWNER') req = req.set('Authorization', `Bearer ${w.salon.owner.token}`);
  if (who === 'STAFF') req = req.set('Authorization', `Bearer ${w.staff.token}`);
  if (who === 'CUSTOMER') req = req.set('Authorization', `Bearer ${w.customerToken}`);
  return body === undefined ? req : req.send(body as object);
}
