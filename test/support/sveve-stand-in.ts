// A local stand-in for the Sveve SMS gateway (POST /SMS/SendMessage, form-encoded, `f=json`
// answers), so the real adapter is tested against the HTTP it will meet. It accepts a message
// when user and password match; the number `123` is refused the way Sveve refuses a bad number.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SveveStandIn {
  /** the SVEVE_URL to configure */
  url: string;
  /** every form posted, in order */
  posts: URLSearchParams[];
  close(): void;
}

export async function startSveveStandIn(credentials: { user: string; password: string }): Promise<SveveStandIn> {
  const posts: URLSearchParams[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      posts.push(form);
      res.setHeader('content-type', 'application/json');
      const authorised =
        req.url === '/SMS/SendMessage' && form.get('user') === credentials.user && form.get('passwd') === credentials.password && form.get('f') === 'json';
      if (!authorised) return res.end(JSON.stringify({ response: { fatalError: 'Feil brukernavn/passord' } }));
      if (form.get('to') === '123')
        return res.end(JSON.stringify({ response: { msgOkCount: 0, stdSMSCount: 0, errors: [{ number: '123', message: 'Ugyldig nummer' }] } }));
      res.end(JSON.stringify({ response: { msgOkCount: 1, stdSMSCount: 1, ids: [posts.length] } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/SMS/SendMessage`,
    posts,
    close: () => server.close(),
  };
}
