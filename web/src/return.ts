// The payment return page's live status: polls GET /public/payments/{tenantId}/status until the
// provider's answer has arrived, then reloads the page, which the server renders with the outcome
// (and the retry button where the platform allows one). Without JavaScript the page refreshes itself.
import { api, call } from './api';

const status = document.querySelector<HTMLElement>('[data-payment-poll]');
if (status) {
  const tenantId = status.dataset.tenantId!;
  const paymentId = status.dataset.paymentId!;
  const started = Date.now();
  const poll = async (): Promise<void> => {
    const result = await call(() => api.GET('/public/payments/{tenantId}/status', { params: { path: { tenantId }, query: { paymentId } } }));
    if (result.ok && result.data.data.status !== 'INITIATED') {
      location.reload();
      return;
    }
    // every second for a minute, then every five seconds
    setTimeout(() => void poll(), Date.now() - started < 60_000 ? 1000 : 5000);
  };
  setTimeout(() => void poll(), 1000);
}
