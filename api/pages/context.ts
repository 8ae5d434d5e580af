// What every customer page handler needs: the api's dependencies, the built assets (undefined until
// `npm run build` made them), and the domain dependency bundles of bookings and payments.
import type { AppDeps } from '../deps';
import type { PageAssets } from './assets';
import type { BookingDeps } from '../../domain/booking/booking.types';
import type { PaymentDeps } from '../../domain/payments/payment-change';

export interface PagesContext {
  deps: AppDeps;
  assets(): PageAssets | undefined;
  bookings: BookingDeps;
  payments: PaymentDeps;
}
