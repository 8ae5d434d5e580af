// Every area's router, mounted under /api by app.ts. One line per area.
import type { Router } from 'express';
import type { AppDeps } from './deps';
import { healthRouter } from './health/routes';
import { authRouter } from './auth/routes';
import { tenantsRouter } from './tenants/routes';
import { taxesRouter } from './taxes/routes';
import { customersRouter } from './customers/routes';
import { catalogueRouter } from './catalogue/routes';
import { resourcesRouter } from './resources/routes';
import { bookingsRouter } from './bookings/routes';
import { loyaltyRouter } from './loyalty/routes';
import { uploadRouter } from './upload/routes';
import { customerAccountRouter } from './customer/routes';
import { impersonationRouter } from './superadmin/routes';
import { paymentsRouter } from './payments/routes';
import { billingRouter } from './billing/routes';
import { waitlistRouter } from './waitlist/routes';
import { platformSettingsRouter } from './platform/routes';

export function areaRouters(deps: AppDeps): Router[] {
  return [
    healthRouter(deps),
    authRouter(deps),
    tenantsRouter(deps),
    taxesRouter(deps),
    customersRouter(deps),
    catalogueRouter(deps),
    resourcesRouter(deps),
    bookingsRouter(deps),
    loyaltyRouter(deps),
    uploadRouter(deps),
    customerAccountRouter(deps),
    impersonationRouter(deps),
    paymentsRouter(deps),
    billingRouter(deps),
    waitlistRouter(deps),
    platformSettingsRouter(deps),
  ];
}
