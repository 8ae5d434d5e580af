// A salon with one caller per role, plus a second salon for cross-tenant checks. `as(role)` calls
// the API as that role: 'OWNER', 'STAFF'; 'IMPERSONATOR' is the platform admin impersonating the
// salon's owner (how the admin acts inside a salon); 'ADMIN' is the platform admin's own token naming
// the salon with x-tenant-id, which salon routes refuse (docs/rules/auth.md#the-platform-admin);
// 'NONE' sends no token; 'CUSTOMER' sends a customer token (type: customer), which admin routes
// reject with 401 (docs/rules/auth.md#roles).
import crypto from 'node:crypto';
import type request from 'supertest';
import jwt from 'jsonwebtoken';
import { stack } from './stack';
import { createAdmin, createSalon, createUser, type TestSalon, type TestUser } from './factories';
import { call, http, type Method } from './http';

/** An impersonation token of the platform admin acting as the salon's owner. */
export async function impersonationToken(admin: TestUser, tenantId: string): Promise<string> {
  const res = await call('post', '/superadmin/impersonate/start', admin.token, { tenantId, reason: 'Test support case' });
  if (res.status !== 201) throw new Error(`impersonation start answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.accessToken as string;
}

export type Caller = 'ADMIN' | 'IMPERSONATOR' | 'OWNER' | 'STAFF' | 'NONE' | 'CUSTOMER';

export interface RoleSalon extends TestSalon {
  staff: TestUser;
  admin: TestUser;
  as(caller: Caller, method: Method, path: string, body?: unknown): Promise<request.Response>;
}

export async function salonWithRoles(options: Parameters<typeof createSalon>[0] = {}): Promise<RoleSalon> {
  const salon = await createSalon(options);
  const staff = await createUser(salon.tenant.id, 'STAFF');
  const admin = await createAdmin();
  const customerToken = jwt.sign(
    { sub: salon.owner.id, tenantId: salon.tenant.id, type: 'customer', tv: 0, sid: crypto.randomUUID() },
    (await stack()).config.keys.accessToken,
    { expiresIn: 600 },
  );
  let impersonating: Promise<string> | undefined;
  const as = async (caller: Caller, method: Method, path: string, body?: unknown) => {
    let req = (await http())[method](`/api${path}`);
    if (caller === 'OWNER') req = req.set('Authorization', `Bearer ${salon.owner.token}`);
    if (caller === 'STAFF') req = req.set('Authorization', `Bearer ${staff.token}`);
    if (caller === 'CUSTOMER') req = req.set('Authorization', `Bearer ${customerToken}`);
    if (caller === 'ADMIN') req = req.set('Authorization', `Bearer ${admin.token}`).set('x-tenant-id', salon.tenant.id);
    if (caller === 'IMPERSONATOR') req = req.set('Authorization', `Bearer ${await (impersonating ??= impersonationToken(admin, salon.tenant.id))}`);
    return body === undefined ? req : req.send(body as object);
  };
  return { ...salon, staff, admin, as };
}
