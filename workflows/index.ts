// Every workflow the worker runs (the worker bundles this file).
export { bookingWorkflow } from './booking/booking.workflow';
export { subscriptionWorkflow, subscriptionReconcileWorkflow } from './subscription/subscription.workflow';
