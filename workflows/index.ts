// Every workflow the worker runs (the worker bundles this file).
export { bookingWorkflow } from './booking/booking.workflow';
export { paymentWorkflow } from './payment/payment.workflow';
