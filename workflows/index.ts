// Every workflow the worker runs (the worker bundles this file).
export { bookingWorkflow } from './booking/booking.workflow';
export { voucherWorkflow } from './loyalty/voucher.workflow';
export { uploadWorkflow } from './upload/upload.workflow';
export { paymentWorkflow } from './payments/payment.workflow';
export { subscriptionWorkflow, subscriptionReconcileWorkflow } from './billing/subscription.workflow';
export { waitlistOfferWorkflow } from './waitlist/waitlist-offer.workflow';
export { waitlistEntryWorkflow } from './waitlist/waitlist-entry.workflow';
export { seriesWorkflow } from './series/series.workflow';
export { rebookingNudgeWorkflow } from './rebooking/rebooking-nudge.workflow';
export { accountMessageWorkflow } from './auth/account-message.workflow';
export { personalDataErasureWorkflow } from './personal-data/erasure.workflow';
export { customerRetentionWorkflow, customerRetentionStarterWorkflow } from './personal-data/retention.workflow';
