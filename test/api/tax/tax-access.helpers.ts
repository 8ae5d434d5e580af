// Shared helpers for the taxes/accounting and customers API tests: every role (docs/rules/auth.md#roles) as a
// caller, including the platform admin impersonating the owner (IMPERSONATOR), its own token naming
// the salon with x-tenant-id (ADMIN, refused: docs/rules/auth.md#the-platform-admin) and a customer token.
import crypto from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Response } from 'supertest';
import { http, type Method } from '../../support/http';
import { createAdmin, createSalon, createUser, type TestSalon, type TestUser } from '../../support/factories';
import { stack } from '../../support/stack';
import { impersonationToken } from '../../support/salon-roles';

export type Caller = 'ADMIN' | 'IMPERSONATOR' | 'OWNER' | 'STAFF' | 'NONE' | 'CUSTOMER';

export interface World {
  salon: TestSalon;
  admin: TestUser;
  staff: TestUser;
  customerToken: string;
  impersonatorToken: string;
}

export async function world(): Promise<World> {
  const salon = await createSalon();
  const admin = await createAdmin();
  const staff = await createUser(salon.tenant.id, 'STAFF');
  const { config } = await stack();
  const customerToken = jwt.sign(
    { sub: salon.owner.id, tenantId: salon.tenant.id, type: 'customer', tv: 0, sid: crypto.randomUUID() },
    config.keys.accessToken,
    { expiresIn: 600 },
  );
  return { salon, admin, staff, customerToken, impersonatorToken: await impersonationToken(admin, salon.tenant.id) };
}

/** Calls as the given role; ADMIN sends x-tenant-id of the salon (docs/rules/auth.md#the-platform-admin). */
export async function as(w: World, who: Caller, method: Method, path: string, body?: unknown): Promise<Response> {
  let req = (await http())[method](`/api${path}`);
  if (who === 'ADMIN') req = req.set('Authorization', `Bearer ${w.admin.token}`).set('x-tenant-id', w.salon.tenant.id);
  if (who === 'IMPERSONATOR') req = req.set('Authorization', `Bearer ${w.impersonatorToken}`);
  if (who === 'OWNER') req = req.set('Authorization', `Bearer ${w.salon.owner.token}`);
  if (who === 'STAFF') req = req.set('Authorization', `Bearer ${w.staff.token}`);
  if (who === 'CUSTOMER') req = req.set('Authorization', `Bearer ${w.customerToken}`);
  return body === undefined ? req : req.send(body as object);
}
