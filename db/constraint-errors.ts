// Database constraint names -> the spec's error codes. The error handler consults this when
// Postgres rejects a write, so a race that slips past a service's pre-check still gets the right
// answer. Each area adds its constraints here.
import { AppError, errors } from '../domain/errors';

export const constraintErrors: Record<string, () => AppError> = {
  tenants_slug_unique: () => errors.conflict('TENANT_SLUG_EXISTS', 'This slug is already taken'),
  tenants_custom_domain_unique: () => errors.conflict('TENANT_DOMAIN_EXISTS', 'This custom domain is already in use'),
  users_tenant_email_unique: () => errors.conflict('USER_EMAIL_EXISTS', 'A user with this e-mail already exists in this salon'),
  users_tenant_phone_unique: () => errors.conflict('USER_PHONE_EXISTS', 'A user with this phone already exists in this salon'),
  users_admin_email_unique: () => errors.conflict('USER_EMAIL_EXISTS', 'A platform admin with this e-mail already exists'),
};
