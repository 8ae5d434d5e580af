// npm run bench:images - the image proxy and the upload path on the embedded stack (embedded
// Postgres, s3rver on loopback, the real Express app on a real port; the workflow signaller is the
// in-memory RecordingSignaller, so Temporal round trips are NOT included). Prints figures, asserts
// nothing:
//   (a) first render (sharp resize of the original + variant stored) and cached render (variant read
//       from storage) of a 12-megapixel JPEG at each purpose preset (docs/rules/uploads.md#purposes), WebP, p50/p95
//   (b) peak RSS of this process while 20 uploads of 5 MB run at once (the clients run in this
//       process too; their one shared 5 MB body is counted in the baseline)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { loadConfig } from '../config';
import { startPlatform } from '../devstack/platform';
import { createApp } from '../api/app';
import { createLogger } from '../integrations/logger';
import { RecordingSignaller } from '../test/support/recording-signaller';
import { completeSettings } from '../domain/tenant/tenant-settings.rules';
import { signAccessToken } from '../domain/auth/tokens';
import { PURPOSES } from '../domain/upload/upload.rules';
import { parseOptions } from '../domain/upload/image-proxy.rules';

const SAMPLES_FIRST = 6;
const SAMPLES_CACHED = 30;
const CONCURRENT_UPLOADS = 20;
const MB = 1024 * 1024;

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
const fmt = (ms: number) => `${ms.toFixed(0).padStart(5)} ms`;
const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;

/** A 4000 x 3000 photo-like JPEG: smooth gradients with some grain (compresses like a photo). */
async function twelveMegapixelJpeg(): Promise<Buffer> {
  const width = 4000;
  const height = 3000;
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const grain = (Math.random() * 28) | 0;
      raw[i] = (x * 255) / width + grain;
      raw[i + 1] = (y * 255) / height + grain;
      raw[i + 2] = ((x + y) * 127) / (width + height) + 64;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** A noisy JPEG just under `limit` bytes (noise does not compress: a worst-case photo of that size). */
async function jpegUnder(limit: number): Promise<Buffer> {
  const make = (side: number) =>
    sharp({ create: { width: side, height: side, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
      .jpeg({ quality: 90 })
      .toBuffer();
  let [low, high] = [400, 3000];
  let best = await make(low);
  for (let i = 0; i < 10 && high - low > 8; i++) {
    const side = Math.floor((low + high) / 2);
    const image = await make(side);
    if (image.length <= limit) [best, low] = [image, side];
    else high = side;
  }
  return best;
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-bench-images-'));
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_GLOBAL: '1000000',
    RATE_LIMIT_UPLOAD: '1000000',
    RATE_LIMIT_IMAGE_SIGN: '1000000',
  });
  const platform = await startPlatform(config, { persistentData: false, logger: createLogger('silent'), signaller: new RecordingSignaller() });
  const app = createApp(platform.deps);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  try {
    const knex = platform.knex;
    const [tenant] = await knex('tenants')
      .insert({ name: 'Bench salon', slug: `bench-${crypto.randomBytes(4).toString('hex')}`, settings: completeSettings('beauty'), branding: {} })
      .returning('*');
    const [owner] = await knex('users')
      .insert({ tenantId: tenant.id, role: 'OWNER', email: `owner-${tenant.id}@bench.test`, passwordHash: 'x' })
      .returning('*');
    const [session] = await knex('auth_sessions').insert({ userId: owner.id }).returning('id');
    const token = signAccessToken(
      { secret: config.keys.accessToken, accessTtlSeconds: 3600 },
      { sub: owner.id, tenantId: tenant.id, role: 'OWNER', tv: 0, sid: session.id },
    );
    const auth = { authorization: `Bearer ${token}` };

    const upload = async (bytes: Buffer | Blob, name: string): Promise<{ status: number; body: { data: { key: string } } }> => {
      const form = new FormData();
      form.append('purpose', 'TENANT_COVER');
      form.append('file', bytes instanceof Blob ? bytes : new Blob([bytes], { type: 'image/jpeg' }), name);
      const res = await fetch(`${base}/upload`, { method: 'POST', headers: auth, body: form });
      return { status: res.status, body: (await res.json()) as { data: { key: string } } };
    };

    // (a) the proxy
    const photo = await twelveMegapixelJpeg();
    console.log(
      `\nbench:images  (${os.cpus().length} cores, Node.js ${process.version}; a 4000x3000 JPEG of ${(photo.length / MB).toFixed(1)} MB, WebP out)\n`,
    );
    const keys: string[] = [];
    for (let i = 0; i < SAMPLES_FIRST; i++) {
      const res = await upload(photo, `photo-${i}.jpg`);
      if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
      keys.push(res.body.data.key);
    }
    const presets = [
      ...new Set(
        Object.values(PURPOSES)
          .map((p) => p.preset)
          .filter((p): p is string => p !== null),
      ),
    ];
    console.log('  preset                         first render p50 / p95     cached render p50 / p95');
    for (const preset of presets) {
      const o = parseOptions(preset)!;
      const urls: string[] = [];
      for (const key of keys) {
        const q = new URLSearchParams({ key, w: String(o.width), h: String(o.height), fit: o.fit, g: o.gravity, q: String(o.quality) });
        const signed = (await (await fetch(`${base}/image-proxy/sign?${q}`, { headers: auth })).json()) as { data: { url: string } };
        urls.push(signed.data.url.replace(config.publicBaseUrl, base.replace(/\/api$/, '')));
      }
      const first: number[] = [];
      for (const url of urls) {
        const t0 = performance.now();
        const res = await fetch(url, { headers: { accept: 'image/webp' } });
        await res.arrayBuffer();
        first.push(performance.now() - t0);
        if (res.headers.get('x-image-cache') !== 'MISS') throw new Error('expected a first render');
      }
      const cached: number[] = [];
      for (let i = 0; i < SAMPLES_CACHED; i++) {
        const t0 = performance.now();
        const res = await fetch(urls[i % urls.length], { headers: { accept: 'image/webp' } });
        await res.arrayBuffer();
        cached.push(performance.now() - t0);
      }
      console.log(`  ${preset.padEnd(30)} ${fmt(pct(first, 50))} / ${fmt(pct(first, 95))}    ${fmt(pct(cached, 50))} / ${fmt(pct(cached, 95))}`);
    }

    // (b) 20 uploads of 5 MB at once
    const big = await jpegUnder(5 * MB);
    const blob = new Blob([big], { type: 'image/jpeg' });
    if (global.gc) global.gc();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const t0 = performance.now();
    const results = await Promise.all(Array.from({ length: CONCURRENT_UPLOADS }, (_, i) => upload(blob, `big-${i}.jpg`)));
    const elapsed = performance.now() - t0;
    clearInterval(sampler);
    const ok = results.filter((r) => r.status === 201).length;
    console.log(`\n  ${CONCURRENT_UPLOADS} concurrent uploads of ${(big.length / MB).toFixed(2)} MB (noisy JPEG): ${ok} stored in ${fmt(elapsed).trim()}`);
    console.log(`  RSS before ${mb(baseline)}, peak ${mb(peak)} (+${mb(peak - baseline)})\n`);
  } finally {
    server.close();
    await platform.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
