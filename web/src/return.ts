// The payment return page's live status: while the outcome is not settled, polls
// GET /public/payments/{tenantId}/status and reloads the page as soon as anything it showed has
// changed (the payment's status, the booking's, its deposit's); the server then renders the outcome,
// with a retry button where the platform allows one. Without JavaScript the page refreshes itself.
import { api, call } from './api';

const status = document.querySelector<HTMLElement>('[data-payment-poll]');
if (status) {
  const shown = status.dataset;
  const started = Date.now();
  const poll = async (): Promise<void> => {
    const result = await call(() =>
      api.GET('/public/payments/{tenantId}/status', { params: { path: { tenantId: shown.tenantId! }, query: { paymentId: shown.paymentId! } } }),
    );
    if (result.ok) {
      const now = result.data.data;
      if (now.status !== shown.status || now.bookingStatus !== shown.bookingStatus || (now.depositStatus ?? '') !== shown.depositStatus) {
        location.reload();
        return;
      }
    }
    // every second for a minute, then every five seconds, for half an hour (a checkout session's life)
    const elapsed = Date.now() - started;
    if (elapsed < 30 * 60_000) setTimeout(() => void poll(), elapsed < 60_000 ? 1000 : 5000);
  };
  setTimeout(() => void poll(), 1000);
}
