// Provider payloads -> the domain's BillingEvent. Standard Webhooks providers (the sandbox, Polar)
// send `{type, data}`; the x-signature provider (Lemon Squeezy) sends `{meta: {event_name,
// custom_data}, data: {id, attributes}}`.
import { WebhookPayloadError } from '../../domain/billing/billing-provider';
import type { BillingEvent, BillingEventKind, SubscriptionStatus } from '../../domain/billing/subscription.rules';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : typeof v === 'number' ? String(v) : null);
const iso = (v: unknown): string | null => {
  const s = str(v);
  return s && !Number.isNaN(Date.parse(s)) ? new Date(s).toISOString() : null;
};

export function mapProviderStatus(status: unknown): SubscriptionStatus | null {
  switch (String(status ?? '').toLowerCase()) {
    case 'active':
    case 'trialing':
    case 'on_trial':
    case 'paused':
      return 'ACTIVE';
    case 'past_due':
    case 'unpaid':
      return 'PAST_DUE';
    case 'canceled':
    case 'cancelled':
      return 'CANCELED';
    case 'expired':
    case 'revoked':
    case 'incomplete_expired':
      return 'EXPIRED';
    default:
      return null;
  }
}

const STANDARD_KINDS: Record<string, BillingEventKind> = {
  'subscription.created': 'created',
  'subscription.updated': 'updated',
  'subscription.active': 'updated',
  'subscription.uncanceled': 'updated',
  'subscription.renewed': 'renewed',
  'subscription.canceled': 'canceled',
  'subscription.expired': 'expired',
  'subscription.revoked': 'expired',
  'subscription.payment_failed': 'payment_failed',
};

/** `{type, data}` of the sandbox and Polar. Events that are not about subscriptions are refused (400). */
export function standardEvent(payload: unknown): { eventName: string; event: BillingEvent } {
  if (!isObj(payload) || typeof payload.type !== 'string' || !isObj(payload.data)) throw new WebhookPayloadError('expected {type, data}');
  const kind = STANDARD_KINDS[payload.type];
  if (!kind) throw new WebhookPayloadError(`unsupported event type ${payload.type}`);
  const d = payload.data;
  const id = str(d.id);
  if (!id) throw new WebhookPayloadError('data.id is required');
  const metadata = isObj(d.metadata) ? d.metadata : {};
  let status = mapProviderStatus(d.status);
  let finalKind = kind;
  if (kind === 'updated' && status === 'PAST_DUE') finalKind = 'payment_failed';
  if (kind === 'updated' && status === 'EXPIRED') finalKind = 'expired';
  if (finalKind !== 'updated' && finalKind !== 'created') status = null;
  return {
    eventName: payload.type,
    event: {
      kind: finalKind,
      providerSubId: id,
      tenantId: str(metadata.tenant_id),
      planKey: str(metadata.plan_key),
      variantId: str(d.product_id) ?? str(d.variant_id),
      status,
      customerId: str(d.customer_id),
      currentPeriodEnd: iso(d.current_period_end),
      trialEndsAt: iso(d.trial_end),
      cancelAtPeriodEnd: typeof d.cancel_at_period_end === 'boolean' ? d.cancel_at_period_end : null,
    },
  };
}

const LEMON_KINDS: Record<string, BillingEventKind> = {
  subscription_created: 'created',
  subscription_updated: 'updated',
  subscription_resumed: 'updated',
  subscription_unpaused: 'updated',
  subscription_payment_success: 'renewed',
  subscription_payment_recovered: 'renewed',
  subscription_cancelled: 'canceled',
  subscription_expired: 'expired',
  subscription_payment_failed: 'payment_failed',
};

/**
 * Lemon Squeezy's `{meta, data}` (subscription invoices carry the subscription id in attributes). The
 * event's time is the object's `updated_at`, inside the signed body (required: without it a stale
 * event could not be told from a fresh one).
 */
export function lemonEvent(payload: unknown): { eventName: string; event: BillingEvent; occurredAt: Date } {
  if (!isObj(payload) || !isObj(payload.meta) || !isObj(payload.data)) throw new WebhookPayloadError('expected {meta, data}');
  const name = str(payload.meta.event_name);
  const kind = name ? LEMON_KINDS[name] : undefined;
  if (!name || !kind) throw new WebhookPayloadError(`unsupported event_name ${name ?? '(none)'}`);
  const a = isObj(payload.data.attributes) ? payload.data.attributes : {};
  const id = payload.data.type === 'subscription-invoices' ? str(a.subscription_id) : str(payload.data.id);
  if (!id) throw new WebhookPayloadError('data.id is required');
  const custom = isObj(payload.meta.custom_data) ? payload.meta.custom_data : {};
  const occurredAt = iso(a.updated_at);
  if (!occurredAt) throw new WebhookPayloadError('data.attributes.updated_at is required');
  return {
    occurredAt: new Date(occurredAt),
    eventName: name,
    event: {
      kind,
      providerSubId: id,
      tenantId: str(custom.tenant_id),
      planKey: str(custom.plan_key),
      variantId: str(a.variant_id),
      status: kind === 'created' || kind === 'updated' ? mapProviderStatus(a.status) : null,
      customerId: str(a.customer_id),
      currentPeriodEnd: iso(a.renews_at) ?? iso(a.ends_at),
      trialEndsAt: iso(a.trial_ends_at),
      cancelAtPeriodEnd: typeof a.cancelled === 'boolean' ? a.cancelled : null,
    },
  };
}
