// Bodies over a limit, as real clients send them (docs/rules/limits.md#sizes-and-counts): curl, Node's fetch and Chromium,
// over a real socket to the api's own server (composition/http-server.ts's startApi). A logo over its 2 MB limit is
// 413 UPLOAD_TOO_LARGE and a JSON body over BODY_LIMIT is 413 PAYLOAD_TOO_LARGE in every client,
// the rest of the body is never read as a new request, and the connection ends with a clean close
// (FIN after the whole answer, never a reset).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { stack } from '../../support/stack';
import { createSalon, type TestSalon } from '../../support/factories';
import { pngOfSize } from '../../support/upload-files';
import { launchChromium, type ChromiumSession } from '../../support/chromium';
import { createApp } from '../../../api/app';
import { closeServer, startApi } from '../../../composition/http-server';

const exec = promisify(execFile);
const MB = 1024 * 1024;

describe('bodies over a limit reach real clients as 413 (curl, fetch, Chromium)', function () {
  this.timeout(90_000);
  let server: http.Server;
  let base: string;
  let salon: TestSalon;
  let dir: string;
  let logo: Buffer;
  let json: string;

  before(async () => {
    const { platform } = await stack();
    server = await startApi(platform.deps, 0, createApp(platform.deps));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    salon = await createSalon();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-large-'));
    logo = await pngOfSize(3 * MB);
    fs.writeFileSync(path.join(dir, 'logo.png'), logo);
    json = JSON.stringify({ name: 'Kari', notes: 'x'.repeat(2 * MB) });
    fs.writeFileSync(path.join(dir, 'body.json'), json);
  });

  after(async () => {
    await closeServer(server, 1000);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** curl's exit code, the status line and the JSON answer; curl exits non-zero on a reset or a timeout. */
  async function curl(args: string[]): Promise<{ code: number; status: number; body: { error?: { code: string } }; trace: string }> {
    try {
      const { stdout, stderr } = await exec('curl', ['-sS', '-v', '--max-time', '20', '-o', '-', '-w', '\n%{http_code}', ...args], { maxBuffer: 8 * MB });
      const status = Number(stdout.slice(stdout.lastIndexOf('\n') + 1));
      return { code: 0, status, body: JSON.parse(stdout.slice(0, stdout.lastIndexOf('\n'))), trace: stderr };
    } catch (err) {
      const e = err as { code: number; stderr: string; stdout: string };
      return { code: e.code, status: 0, body: {}, trace: `${e.stderr}\n${e.stdout}` };
    }
  }

  it('when curl uploads a 3 MB logo then it gets 413 UPLOAD_TOO_LARGE and the connection is closed cleanly', async () => {
    const res = await curl([
      '-H',
      `Authorization: Bearer ${salon.owner.token}`,
      '-F',
      'purpose=TENANT_LOGO',
      '-F',
      `file=@${path.join(dir, 'logo.png')};type=image/png`,
      `${base}/api/upload`,
    ]);
    expect(res.code, res.trace).to.equal(0);
    expect([res.status, res.body.error?.code], res.trace).to.deep.equal([413, 'UPLOAD_TOO_LARGE']);
    expect(res.trace).to.match(/< connection: close/i);
  });

  it('when curl posts 2 MB of JSON then it gets 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await curl([
      '-H',
      `Authorization: Bearer ${salon.owner.token}`,
      '-H',
      'content-type: application/json',
      '--data-binary',
      `@${path.join(dir, 'body.json')}`,
      `${base}/api/customers`,
    ]);
    expect(res.code, res.trace).to.equal(0);
    expect([res.status, res.body.error?.code], res.trace).to.deep.equal([413, 'PAYLOAD_TOO_LARGE']);
  });

  it("when Node's fetch uploads a 3 MB logo or posts 2 MB of JSON then it reads the 413 answers", async () => {
    const form = new FormData();
    form.append('purpose', 'TENANT_LOGO');
    form.append('file', new Blob([logo], { type: 'image/png' }), 'logo.png');
    const upload = await fetch(`${base}/api/upload`, { method: 'POST', headers: { authorization: `Bearer ${salon.owner.token}` }, body: form });
    expect([upload.status, ((await upload.json()) as { error: { code: string } }).error.code]).to.deep.equal([413, 'UPLOAD_TOO_LARGE']);
    const posted = await fetch(`${base}/api/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${salon.owner.token}`, 'content-type': 'application/json' },
      body: json,
    });
    expect([posted.status, ((await posted.json()) as { error: { code: string } }).error.code]).to.deep.equal([413, 'PAYLOAD_TOO_LARGE']);
    // the api still answers afterwards
    expect((await fetch(`${base}/api/health`)).status).to.equal(200);
  });

  it('when a raw client sends the whole oversize upload then it reads exactly one answer and then the end of the stream (no reset, nothing parsed from the rest)', async () => {
    const boundary = 'salon-boundary-42';
    const head = Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="purpose"\r\n\r\nTENANT_LOGO\r\n--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="logo.png"\r\ncontent-type: image/png\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const body = Buffer.concat([head, logo, tail]);
    const port = (server.address() as AddressInfo).port;
    const answer = await new Promise<{ text: string; error?: string }>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(
          `POST /api/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${salon.owner.token}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`,
        );
        socket.end(body);
      });
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.on('end', () => resolve({ text }));
      socket.on('error', (err) => resolve({ text, error: (err as NodeJS.ErrnoException).code }));
    });
    expect(answer.error, answer.text).to.equal(undefined);
    const responses = answer.text.match(/^HTTP\/1\.1 \d{3}/gm) ?? [];
    expect(responses, answer.text).to.deep.equal(['HTTP/1.1 413']);
    expect(answer.text).to.match(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4)).error.code).to.equal('UPLOAD_TOO_LARGE');
  });

  describe('in Chromium', () => {
    let browser: ChromiumSession;
    before(async () => {
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
    });

    it('when the page uploads a 3 MB logo and posts 2 MB of JSON then both answers are 413 with their codes', async () => {
      const page = await browser.context.newPage();
      await page.goto(`${base}/api/health`);
      // plain JavaScript: the test's TypeScript transform would add helpers the page does not have
      const answers = await page.evaluate(`(async () => {
        const token = ${JSON.stringify(salon.owner.token)};
        const size = 3 * 1024 * 1024;
        const read = (res) => res.json().then((b) => [res.status, b.error.code]);
        const failed = (e) => [0, String(e)];
        const form = new FormData();
        form.append('purpose', 'TENANT_LOGO');
        const bytes = new Uint8Array(size);
        bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
        form.append('file', new Blob([bytes], { type: 'image/png' }), 'logo.png');
        const upload = await fetch('/api/upload', { method: 'POST', headers: { authorization: 'Bearer ' + token }, body: form }).then(read, failed);
        const posted = await fetch('/api/customers', {
          method: 'POST',
          headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Kari', notes: 'x'.repeat(size) }),
        }).then(read, failed);
        return { upload, posted };
      })()`);
      expect(answers).to.deep.equal({ upload: [413, 'UPLOAD_TOO_LARGE'], posted: [413, 'PAYLOAD_TOO_LARGE'] });
      await page.close();
    });
  });
});
