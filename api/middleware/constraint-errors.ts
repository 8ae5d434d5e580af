// Database constraint names -> the error codes of docs/rules/errors.md. The error handler consults this when
// Postgres rejects a write, so a race that slips past a service's pre-check still gets the right
// answer. Each area adds its constraints here.
import { AppError, errors } from '../../domain/errors';

export const constraintErrors: Record<string, () => AppError> = {
  tenants_slug_unique: () => errors.conflict('TENANT_SLUG_EXISTS', 'This slug is already taken'),
  tenants_custom_domain_unique: () => errors.conflict('TENANT_DOMAIN_EXISTS', 'This custom domain is already in use'),
  users_tenant_email_unique: () => errors.conflict('USER_EMAIL_EXISTS', 'A user with this e-mail already exists in this salon'),
  users_tenant_phone_unique: () => errors.conflict('USER_PHONE_EXISTS', 'A user with this phone already exists in this salon'),
  users_admin_email_unique: () => errors.conflict('USER_EMAIL_EXISTS', 'A platform admin with this e-mail already exists'),
  booking_segments_no_overlap: () => errors.conflict('BOOKING_CONFLICT', 'The time overlaps another booking of this staff member, room or piece of equipment'),
  bookings_applied_voucher_unique: () => errors.conflict('LOYALTY_VOUCHER_ALREADY_USED', 'This voucher is already applied to another booking'),
  // taxes, accounting
  taxes_one_default_per_tenant: () => errors.conflict('TAX_DEFAULT_CONFLICT', 'Another tax became the default at the same time; try again'),
  accounting_accounts_tenant_code_unique: () => errors.conflict('ACCOUNTING_ACCOUNT_CODE_EXISTS', 'An accounting account with this code already exists'),
  accounting_accounts_one_default_per_tenant: () =>
    errors.conflict('ACCOUNTING_ACCOUNT_DEFAULT_CONFLICT', 'Another account became the default at the same time; try again'),
  // customers
  customers_tenant_phone_unique: () => errors.conflict('CUSTOMER_PHONE_EXISTS', 'A customer with this phone already exists in this salon'),
  customers_tenant_email_unique: () => errors.conflict('CUSTOMER_EMAIL_EXISTS', 'A customer with this e-mail already exists in this salon'),
  // a booking that raced the erasure of its customer's record (migration 210, docs/rules/personal-data.md#erasure-racing-a-booking)
  bookings_customer_not_erased_fk: () =>
    errors.conflict('CUSTOMER_ERASED', 'The customer record was erased while booking; nothing was booked, please book again'),
  // catalogue and staff (migration 011)
  service_categories_tenant_name_unique: () => errors.conflict('SERVICE_CATEGORY_NAME_EXISTS', 'A category with this name already exists in this salon'),
  resources_user_unique: () => errors.conflict('RESOURCE_USER_ALREADY_LINKED', 'This user is already linked to another resource'),
  resource_schedule_overrides_resource_date_unique: () => errors.conflict('SCHEDULE_OVERRIDE_EXISTS', 'This resource already has an override for this date'),
  // waitlist (migration 100, docs/rules/waitlist.md#joining)
  waitlist_entries_one_per_phone: () => errors.conflict('WAITLIST_ENTRY_EXISTS', 'This phone number is already on the waitlist for overlapping dates'),
  // standing appointments (migration 160, docs/rules/series.md)
  booking_series_first_booking_unique: () => errors.conflict('SERIES_ALREADY_EXISTS', 'This booking already starts a series'),
  booking_series_occurrences_booking_unique: () => errors.conflict('SERIES_ALREADY_EXISTS', 'This booking already belongs to a series'),
  resource_skills_pkey: () => errors.conflict('RESOURCE_SKILL_EXISTS', 'This resource already has this skill'),
};
