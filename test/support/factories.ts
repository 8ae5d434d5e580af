// Test data through the same services the app uses, with unique values per call so tests never
// collide. Tokens are signed exactly like the login route signs them.
import crypto from 'node:crypto';
import { TenantModel } from '../../db/models/tenant.model';
import { UserModel, type StaffRole } from '../../db/models/user.model';
import { completeSettings, type IndustryType, type TenantSettings } from '../../domain/tenant/tenant-settings.rules';
import { hashPassword } from '../../domain/users/passwords';
import { signAccessToken } from '../../domain/auth/tokens';
import { AuthSessionModel } from '../../db/models/auth-session.model';
import { stack } from './stack';

export function unique(prefix = 'x'): string {
  return `${prefix}-${crypto.randomBytes(5).toString('hex')}`;
}

/** A Norwegian mobile number nobody else in the run has, in E.164 (+479xxxxxxx). */
export function uniquePhone(): string {
  return `+479${String(crypto.randomInt(0, 10_000_000)).padStart(7, '0')}`;
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
  role: StaffRole;
  tenantId: string | null;
  token: string;
}

export interface TestSalon {
  tenant: TenantModel & { settings: TenantSettings };
  owner: TestUser;
}

/** An access token of a new sign-in session of the user (docs/rules/auth.md#sessions), signed as the login route signs it. */
export async function tokenFor(user: { id: string; tenantId: string | null; role: StaffRole; tokenVersion?: number }): Promise<string> {
  const { config } = await stack();
  const session = await AuthSessionModel.query().insert({ userId: user.id });
  return signAccessToken(
    { secret: config.keys.accessToken, accessTtlSeconds: config.accessTokenTtlSeconds },
    { sub: user.id, tenantId: user.tenantId, role: user.role, tv: user.tokenVersion ?? 0, sid: session.id },
  );
}

export async function createUser(
  tenantId: string | null,
  role: StaffRole,
  fields: Partial<{ email: string; phone: string; name: string; password: string }> = {},
): Promise<TestUser> {
  await stack();
  const password = fields.password ?? 'secret-password';
  const email = fields.email ?? `${unique(role.toLowerCase())}@example.test`;
  const user = await UserModel.query().insert({
    tenantId,
    role,
    email,
    phone: fields.phone ?? null,
    name: fields.name ?? `${role} user`,
    passwordHash: await hashPassword(password, 4),
  });
  return { id: user.id, email, password, role, tenantId, token: await tokenFor(user) };
}

export async function createSalon(
  options: { industry?: IndustryType; settings?: Partial<TenantSettings>; name?: string; launched?: boolean } = {},
): Promise<TestSalon> {
  await stack();
  const industry = options.industry ?? 'beauty';
  const slug = unique('salon');
  const tenant = await TenantModel.query().insert({
    name: options.name ?? `Salon ${slug}`,
    slug,
    industryType: industry,
    settings: completeSettings(industry, options.settings),
    branding: {},
    // a test salon takes bookings as a launched one does (docs/rules/salon.md#launch); launch tests make their own
    launchedAt: options.launched === false ? null : new Date(),
  });
  const owner = await createUser(tenant.id, 'OWNER');
  return { tenant: tenant as TestSalon['tenant'], owner };
}

export async function createAdmin(): Promise<TestUser> {
  return createUser(null, 'ADMIN');
}
