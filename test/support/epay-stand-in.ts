// A local stand-in for ePay (Bambora Online Classic) speaking its HTTP, for the tests: the Payment
// Window (GET with the MD5-hashed parameters, a Pay button), the callback (GET to callbackurl with
// txnid, orderid, amount, currency, date, time, ... and the MD5 hash), and the payment webservice
// (SOAP 1.1 at /remote/payment.asmx: gettransaction, capture, delete, credit, getEpayError).
// gettransaction answers as ePay's webservice does: `transactionInformation` with the transaction's
// `authamount`, `capturedamount`, `creditedamount` (what was refunded so far) and `status`.
import http from 'node:http';
import { epayHash } from '../../integrations/payments/epay/epay-provider';

interface Merchant {
  md5Key: string;
  apiPassword: string;
}

interface Txn {
  txnid: string;
  merchantNumber: string;
  orderid: string;
  amount: number;
  capturedAmount: number;
  creditedAmount: number;
  status: 'PAYMENT_NEW' | 'PAYMENT_CAPTURED' | 'PAYMENT_DELETED';
  captureCalls: number;
  creditCalls: number;
  deleteCalls: number;
}

export interface EpayStandIn {
  windowUrl: string;
  apiUrl: string;
  merchant(merchantNumber: string, md5Key: string, apiPassword: string): void;
  transactionOf(orderid: string): Readonly<Txn> | undefined;
  /** the callbacks sent: url and the platform's answer */
  callbacks: { url: string; status: number }[];
  /**
   * The next `times` calls of `action` are carried out (money moves) and then their answer is lost:
   * the connection is cut before a byte of it is written, as when ePay or the network fails mid-call.
   */
  loseAnswers(action: 'capture' | 'credit' | 'delete', times?: number): void;
  /** While on, callbacks are kept in `held` instead of being sent (a callback that arrives late). */
  holdCallbacks(on: boolean): void;
  held: string[];
  close(): Promise<void>;
}

const NS = 'https://ssl.ditonlinebetalingssystem.dk/remote/payment';

export async function startEpayStandIn(deliver: (url: string) => Promise<number>): Promise<EpayStandIn> {
  const merchants = new Map<string, Merchant>();
  const windows = new Map<string, URLSearchParams>();
  const txns = new Map<string, Txn>();
  const callbacks: EpayStandIn['callbacks'] = [];
  let nextTxn = 100000;
  const answersToLose = new Map<string, number>();
  const held: string[] = [];
  let holding = false;

  function soapAnswer(res: http.ServerResponse, action: string, ok: boolean, extra = ''): void {
    const lose = answersToLose.get(action) ?? 0;
    if (ok && lose > 0) {
      answersToLose.set(action, lose - 1);
      res.socket?.destroy();
      return;
    }
    res
      .writeHead(200, { 'content-type': 'text/xml; charset=utf-8' })
      .end(
        `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><${action}Response xmlns="${NS}"><${action}Result>${ok}</${action}Result>${extra}<epayresponse>${ok ? -1 : -1002}</epayresponse></${action}Response></soap:Body></soap:Envelope>`,
      );
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');

    if (url.pathname === '/ewindow' && req.method === 'GET') {
      const params = [...url.searchParams.entries()];
      const merchant = merchants.get(url.searchParams.get('merchantnumber') ?? '');
      const hash = url.searchParams.get('hash');
      if (
        !merchant ||
        hash !==
          epayHash(
            params.filter(([k]) => k !== 'hash').map(([, v]) => v),
            merchant.md5Key,
          )
      ) {
        return void res.writeHead(400, { 'content-type': 'text/plain' }).end('ePay: hash mismatch');
      }
      windows.set(url.searchParams.get('orderid')!, url.searchParams);
      return void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<form method="post" action="/ewindow/pay?orderid=${url.searchParams.get('orderid')}"><button>Betal</button></form>`);
    }

    if (url.pathname === '/ewindow/pay' && req.method === 'POST') {
      const w = windows.get(url.searchParams.get('orderid') ?? '');
      if (!w) return void res.writeHead(404).end();
      const merchantNumber = w.get('merchantnumber')!;
      const amount = Number(w.get('amount'));
      const txn: Txn = {
        txnid: String(nextTxn++),
        merchantNumber,
        orderid: w.get('orderid')!,
        amount,
        capturedAmount: w.get('instantcapture') === '1' ? amount : 0,
        creditedAmount: 0,
        status: w.get('instantcapture') === '1' ? 'PAYMENT_CAPTURED' : 'PAYMENT_NEW',
        captureCalls: 0,
        creditCalls: 0,
        deleteCalls: 0,
      };
      txns.set(txn.txnid, txn);
      const now = new Date();
      const back: [string, string][] = [
        ['txnid', txn.txnid],
        ['orderid', txn.orderid],
        ['amount', String(amount)],
        ['currency', w.get('currency')!],
        ['date', now.toISOString().slice(0, 10).replace(/-/g, '')],
        ['time', now.toISOString().slice(11, 16).replace(':', '')],
        ['txnfee', '0'],
        ['paymenttype', '3'],
        ['cardno', '444444XXXXXX4000'],
      ];
      back.push([
        'hash',
        epayHash(
          back.map(([, v]) => v),
          merchants.get(merchantNumber)!.md5Key,
        ),
      ]);
      const callbackUrl = `${w.get('callbackurl')}?${new URLSearchParams(back).toString()}`;
      if (holding) held.push(callbackUrl);
      else callbacks.push({ url: callbackUrl, status: await deliver(callbackUrl).catch(() => 0) });
      return void res.writeHead(303, { location: `${w.get('accepturl')}?${new URLSearchParams(back).toString()}` }).end();
    }

    if (url.pathname === '/remote/payment.asmx' && req.method === 'POST') {
      const action = /\/([A-Za-z]+)"?$/.exec(String(req.headers.soapaction ?? ''))?.[1] ?? '';
      const field = (k: string) => new RegExp(`<${k}>([^<]*)</${k}>`).exec(body)?.[1] ?? '';
      const merchant = merchants.get(field('merchantnumber'));
      if (!merchant || merchant.apiPassword !== field('pwd')) return soapAnswer(res, action, false);
      if (action === 'getEpayError') return soapAnswer(res, action, true, '<epayResponseString>OK</epayResponseString>');
      const txn = txns.get(field('transactionid'));
      if (!txn || txn.merchantNumber !== field('merchantnumber')) return soapAnswer(res, action, false);
      const amount = Number(field('amount'));
      switch (action) {
        case 'gettransaction':
          return soapAnswer(
            res,
            action,
            true,
            `<transactionInformation><transactionid>${txn.txnid}</transactionid><authamount>${txn.amount}</authamount><capturedamount>${txn.capturedAmount}</capturedamount><creditedamount>${txn.creditedAmount}</creditedamount><status>${txn.status}</status></transactionInformation>`,
          );
        case 'capture':
          txn.captureCalls += 1;
          if (txn.status !== 'PAYMENT_NEW' || amount > txn.amount) return soapAnswer(res, action, false);
          txn.capturedAmount = amount;
          txn.status = 'PAYMENT_CAPTURED';
          return soapAnswer(res, action, true);
        case 'delete':
          txn.deleteCalls += 1;
          if (txn.status !== 'PAYMENT_NEW') return soapAnswer(res, action, false);
          txn.status = 'PAYMENT_DELETED';
          return soapAnswer(res, action, true);
        case 'credit':
          txn.creditCalls += 1;
          if (txn.status !== 'PAYMENT_CAPTURED' || amount > txn.capturedAmount - txn.creditedAmount) return soapAnswer(res, action, false);
          txn.creditedAmount += amount;
          return soapAnswer(res, action, true);
        default:
          return void res.writeHead(400).end();
      }
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    windowUrl: `http://127.0.0.1:${port}/ewindow`,
    apiUrl: `http://127.0.0.1:${port}/remote/payment.asmx`,
    merchant: (n, md5Key, apiPassword) => void merchants.set(n, { md5Key, apiPassword }),
    transactionOf: (orderid) => [...txns.values()].find((t) => t.orderid === orderid),
    callbacks,
    loseAnswers: (action, times = 1) => void answersToLose.set(action, times),
    holdCallbacks: (on) => void (holding = on),
    held,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
