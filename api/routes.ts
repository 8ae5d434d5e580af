// Every area's router, mounted under /api by app.ts. One line per area.
import type { Router } from 'express';
import type { AppDeps } from './deps';
import { healthRouter } from './health/routes';
import { authRouter } from './auth/routes';
import { tenantRouter } from './tenant/routes';
import { taxRouter } from './tax/routes';
import { customerRouter } from './customer/routes';
import { catalogueRouter } from './catalogue/routes';
import { resourceRouter } from './resource/routes';
import { availabilityRouter } from './availability/routes';
import { bookingRouter } from './booking/routes';
import { publicRouter } from './public/routes';
import { loyaltyRouter } from './loyalty/routes';
import { uploadRouter } from './upload/routes';
import { customerAccountRouter } from './customer-account/routes';
import { impersonationRouter } from './impersonation/routes';
import { paymentsRouter } from './payments/routes';
import { billingRouter } from './billing/routes';
import { waitlistRouter } from './waitlist/routes';
import { seriesRouter } from './series/routes';
import { rebookingRouter } from './rebooking/routes';
import { platformSettingsRouter } from './platform/routes';
import { notificationsRouter } from './notifications/routes';
import { personalDataRouter } from './personal-data/routes';
import { deskRouter } from './desk/routes';

export function areaRouters(deps: AppDeps): Router[] {
  return [
    healthRouter(deps),
    authRouter(deps),
    tenantRouter(deps),
    taxRouter(deps),
    customerRouter(deps),
    catalogueRouter(deps),
    resourceRouter(deps),
    availabilityRouter(deps),
    bookingRouter(deps),
    publicRouter(deps),
    loyaltyRouter(deps),
    uploadRouter(deps),
    customerAccountRouter(deps),
    impersonationRouter(deps),
    paymentsRouter(deps),
    billingRouter(deps),
    waitlistRouter(deps),
    seriesRouter(deps),
    rebookingRouter(deps),
    platformSettingsRouter(deps),
    notificationsRouter(deps),
    personalDataRouter(deps),
    deskRouter(deps),
  ];
}
