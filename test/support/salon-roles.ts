// A salon with one caller per role (OWNER, STAFF, ADMIN acting through x-tenant-id), plus a second
// salon for cross-tenant checks. `as(role)` calls the API as that role; 'NONE' sends no token;
// 'CUSTOMER' sends a customer token (type: customer), which admin routes reject with 401 (docs/rules/auth.md#roles).
import type request from 'supertest';
import jwt from 'jsonwebtoken';
import { stack } from './stack';
import { createAdmin, createSalon, createUser, type TestSalon, type TestUser } from './factories';
import { http, type Method } from './http';

export type Caller = 'ADMIN' | 'OWNER' | 'STAFF' | 'NONE' | 'CUSTOMER';

export interface RoleSalon extends TestSalon {
  staff: TestUser;
  admin: TestUser;
  as(caller: Caller, method: Method, path: string, body?: unknown): Promise<request.Response>;
}

export async function salonWithRoles(options: Parameters<typeof createSalon>[0] = {}): Promise<RoleSalon> {
  const salon = await createSalon(options);
  const staff = await createUser(salon.tenant.id, 'STAFF');
  const admin = await createAdmin();
  const customerToken = jwt.sign({ sub: salon.owner.id, tenantId: salon.tenant.id, type: 'customer', tv: 0 }, (await stack()).config.keys.accessToken, { expiresIn: 600 });
  const as = async (caller: Caller, method: Method, path: string, body?: unknown) => {
    let req = (await http())[method](`/api${path}`);
    if (caller === 'OWNER') req = req.set('Authorization', `Bearer ${salon.owner.token}`);
    if (caller === 'STAFF') req = req.set('Authorization', `Bearer ${staff.token}`);
    if (caller === 'CUSTOMER') req = req.set('Authorization', `Bearer ${customerToken}`);
    if (caller === 'ADMIN') req = req.set('Authorization', `Bearer ${admin.token}`).set('x-tenant-id', salon.tenant.id);
    return body === undefined ? req : req.send(body as object);
  };
  return { ...salon, staff, admin, as };
}
