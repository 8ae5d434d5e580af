/**
 * ePay (Bambora Online Classic, docs.epay.dk), the default provider: the hosted Payment Window and
 * the payment webservice (SOAP, remote/payment.asmx).
 *
 * - Session: the Payment Window is opened with GET parameters (merchantnumber, amount, currency as
 *   ISO 4217 numeric, orderid, windowstate, instantcapture, accepturl, cancelurl, callbackurl) and
 *   `hash` = MD5 of the values of all parameters in the order sent + the merchant's MD5 key.
 * - Callback: ePay calls callbackurl with GET parameters (txnid, orderid, amount, currency, date,
 *   time, ..., hash); `hash` = MD5 of the values of all the other parameters in the order received
 *   + the MD5 key. The platform's webhook route takes the same parameters as a form POST too.
 * - capture / delete (void) / credit (refund) / gettransaction are SOAP calls with the webservice
 *   password. The webservice takes no idempotency key (`takesIdempotencyKeys: false`): capture and
 *   delete read the transaction first and do nothing when it is already captured / deleted, and a
 *   refund reads gettransaction's `creditedamount` first (`refundedAmount`) and credits only what is
 *   still owed (domain/payments/provider-refunds.ts), so a retried call moves no money twice; the
 *   platform's key travels in an `Idempotency-Key` header for proxies that honour it.
 * Credentials: `{merchantNumber, md5Key, apiPassword}`. orderid is the payment id without dashes.
 */
import crypto from 'node:crypto';
import {
  ProviderError,
  type PaymentProvider,
  type ProviderCredentials,
  type ProviderMoneyRequest,
  type ProviderStatus,
  type ProviderWebhookEvent,
  type RawWebhook,
} from '../../../domain/payments/payment-provider';

const SOAP_NS = 'https://ssl.ditonlinebetalingssystem.dk/remote/payment';

/** ISO 4217 numeric codes ePay expects. */
const CURRENCY_NUMBERS: Record<string, string> = { NOK: '578', DKK: '208', SEK: '752', EUR: '978', USD: '840', GBP: '826' };

export function epayHash(values: string[], md5Key: string): string {
  return crypto
    .createHash('md5')
    .update(values.join('') + md5Key, 'utf8')
    .digest('hex');
}

export function orderIdOf(paymentId: string): string {
  return paymentId.replace(/-/g, '');
}

export function paymentIdOf(orderId: string): string | null {
  if (!/^[0-9a-f]{32}$/i.test(orderId)) return null;
  const h = orderId.toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function xmlEscape(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function pick(xml: string, tag: string): string | null {
  const m = new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml);
  return m ? m[1] : null;
}

export class EpayProvider implements PaymentProvider {
  readonly name = 'epay';
  readonly credentialFields = ['merchantNumber', 'md5Key', 'apiPassword'] as const;
  readonly takesIdempotencyKeys = false;

  constructor(private readonly urls: { windowUrl: string; apiUrl: string }) {}

  private async soap(action: string, fields: [string, string][], idempotencyKey?: string): Promise<string> {
    const body = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><${action} xmlns="${SOAP_NS}">${fields
      .map(([k, v]) => `<${k}>${xmlEscape(v)}</${k}>`)
      .join('')}</${action}></soap:Body></soap:Envelope>`;
    let res: Response;
    try {
      res = await fetch(this.urls.apiUrl, {
        method: 'POST',
        headers: {
          'content-type': 'text/xml; charset=utf-8',
          soapaction: `"${SOAP_NS}/${action}"`,
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      throw new ProviderError('TRANSIENT', 'PROVIDER_UNAVAILABLE', 'ePay webservice unreachable');
    }
    const text = await res.text();
    if (res.status === 429 || res.status >= 500) throw new ProviderError('TRANSIENT', 'PROVIDER_UNAVAILABLE', `ePay webservice answered ${res.status}`);
    if (!res.ok) throw new ProviderError('PERMANENT', `EPAY_HTTP_${res.status}`, `ePay webservice refused: ${res.status}`);
    if (pick(text, `${action}Result`) !== 'true') {
      throw new ProviderError(
        'PERMANENT',
        `EPAY_${pick(text, 'epayresponse') ?? 'ERROR'}`.slice(0, 60),
        `ePay ${action} refused (epayresponse ${pick(text, 'epayresponse') ?? '?'})`,
      );
    }
    return text;
  }

  private txn(r: { transactionId: string | null }): string {
    if (!r.transactionId) throw new ProviderError('PERMANENT', 'EPAY_NO_TRANSACTION', 'ePay has no transaction for this payment yet');
    return r.transactionId;
  }

  private async transaction(c: ProviderCredentials, transactionId: string): Promise<{ capturedAmount: number; creditedAmount: number; status: string }> {
    const xml = await this.soap('gettransaction', [
      ['merchantnumber', c.merchantNumber],
      ['transactionid', transactionId],
      ['pwd', c.apiPassword],
      ['epayresponse', '-1'],
    ]);
    return {
      capturedAmount: Number(pick(xml, 'capturedamount') ?? 0),
      creditedAmount: Number(pick(xml, 'creditedamount') ?? Number.NaN),
      status: pick(xml, 'status') ?? 'UNKNOWN',
    };
  }

  async createSession(c: ProviderCredentials, r: Parameters<PaymentProvider['createSession']>[1]) {
    const currency = CURRENCY_NUMBERS[r.currency];
    if (!currency) throw new ProviderError('PERMANENT', 'EPAY_CURRENCY', `ePay does not take ${r.currency}`);
    const params: [string, string][] = [
      ['merchantnumber', c.merchantNumber],
      ['amount', String(r.amount)],
      ['currency', currency],
      ['orderid', orderIdOf(r.paymentId)],
      ['windowstate', '3'],
      ['instantcapture', r.captureMode === 'AUTO' ? '1' : '0'],
      ['accepturl', r.returnUrl],
      ['cancelurl', r.returnUrl],
      ['callbackurl', r.webhookUrl],
    ];
    const hash = epayHash(
      params.map(([, v]) => v),
      c.md5Key,
    );
    const query = new URLSearchParams([...params, ['hash', hash]]).toString();
    return { sessionId: orderIdOf(r.paymentId), redirectUrl: `${this.urls.windowUrl}?${query}` };
  }

  async authorize(): Promise<{ transactionId: string }> {
    throw new ProviderError('PERMANENT', 'EPAY_WINDOW_ONLY', 'ePay authorizes in its Payment Window only');
  }

  async capture(c: ProviderCredentials, r: ProviderMoneyRequest) {
    const transactionId = this.txn(r);
    // no idempotency key at ePay: an already captured transaction is not captured again
    if ((await this.transaction(c, transactionId)).capturedAmount >= r.amount) return { transactionId };
    await this.soap(
      'capture',
      [
        ['merchantnumber', c.merchantNumber],
        ['transactionid', transactionId],
        ['amount', String(r.amount)],
        ['pwd', c.apiPassword],
        ['pbsResponse', '-1'],
        ['epayresponse', '-1'],
      ],
      r.idempotencyKey,
    );
    return { transactionId };
  }

  async void(c: ProviderCredentials, r: Omit<ProviderMoneyRequest, 'amount'>) {
    const transactionId = this.txn(r);
    if ((await this.transaction(c, transactionId)).status === 'PAYMENT_DELETED') return;
    await this.soap(
      'delete',
      [
        ['merchantnumber', c.merchantNumber],
        ['transactionid', transactionId],
        ['pwd', c.apiPassword],
        ['epayresponse', '-1'],
      ],
      r.idempotencyKey,
    );
  }

  async refund(c: ProviderCredentials, r: ProviderMoneyRequest) {
    const transactionId = this.txn(r);
    await this.soap(
      'credit',
      [
        ['merchantnumber', c.merchantNumber],
        ['transactionid', transactionId],
        ['amount', String(r.amount)],
        ['pwd', c.apiPassword],
        ['epayresponse', '-1'],
        ['pbsresponse', '-1'],
      ],
      r.idempotencyKey,
    );
    return { refundId: `${transactionId}:${r.idempotencyKey}` };
  }

  async refundedAmount(c: ProviderCredentials, r: { transactionId: string | null }): Promise<number> {
    const { creditedAmount } = await this.transaction(c, this.txn(r));
    if (!Number.isSafeInteger(creditedAmount) || creditedAmount < 0)
      throw new ProviderError('TRANSIENT', 'EPAY_UNREADABLE', 'ePay gettransaction gave no credited amount');
    return creditedAmount;
  }

  async fetchStatus(c: ProviderCredentials, r: { sessionId: string; transactionId?: string | null }): Promise<ProviderStatus> {
    if (!r.transactionId) return 'PENDING';
    const { status } = await this.transaction(c, r.transactionId);
    return status === 'PAYMENT_CAPTURED' ? 'CAPTURED' : status === 'PAYMENT_DELETED' ? 'VOIDED' : status === 'PAYMENT_NEW' ? 'AUTHORIZED' : 'UNKNOWN';
  }

  verifyWebhook(c: ProviderCredentials, webhook: RawWebhook): ProviderWebhookEvent | null {
    // GET: the query string in the order received; POST: the form body in the order received
    const source = webhook.method === 'GET' ? Object.entries(webhook.query) : [...new URLSearchParams(webhook.rawBody.toString('utf8')).entries()];
    const hash = source.find(([k]) => k === 'hash')?.[1];
    if (!hash) return null;
    const expected = epayHash(
      source.filter(([k]) => k !== 'hash').map(([, v]) => v),
      c.md5Key,
    );
    if (hash.length !== expected.length || !crypto.timingSafeEqual(Buffer.from(hash.toLowerCase()), Buffer.from(expected))) return null;
    const get = (k: string) => source.find(([key]) => key === k)?.[1];
    const paymentId = paymentIdOf(get('orderid') ?? '');
    const txnid = get('txnid');
    if (!paymentId || !txnid) return null;
    const amount = Number(get('amount'));
    return {
      providerEventId: `txn:${txnid}`,
      paymentId,
      outcome: 'AUTHORIZED',
      capturedIfAuto: true,
      transactionId: txnid,
      amount: Number.isSafeInteger(amount) ? amount : undefined,
    };
  }

  async healthCheck(c: ProviderCredentials): Promise<void> {
    await this.soap('getEpayError', [
      ['merchantnumber', c.merchantNumber],
      ['language', '2'],
      ['epayresponsecode', '-1'],
      ['pwd', c.apiPassword],
      ['epayresponse', '-1'],
    ]);
  }
}
