// The signed image proxy (docs/rules/uploads.md#image-proxy): sign, then render through the platform itself.
import { expect } from 'chai';
import { signInCustomer } from '../../support/customers';
import sharp from 'sharp';
import { stack } from '../../support/stack';
import { call, http } from '../../support/http';
import { salonWithRoles, type RoleSalon } from '../../support/salon-roles';
import { jpeg, png, uploadAs } from '../../support/upload-files';
import { signImageUrl } from '../../../domain/upload/image-proxy.service';

async function render(url: string, headers: Record<string, string> = {}) {
  const { pathname, search } = new URL(url);
  let req = (await http())
    .get(pathname + search)
    .buffer(true)
    .parse((res, done) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => done(null, Buffer.concat(parts)));
    });
  for (const [k, v] of Object.entries(headers)) req = req.set(k, v);
  return req;
}

describe('image proxy', function () {
  this.timeout(60_000);
  let s: RoleSalon;
  let other: RoleSalon;
  let logo: { id: string; key: string };
  let cover: { id: string; key: string };
  before(async () => {
    s = await salonWithRoles();
    other = await salonWithRoles();
    logo = (await uploadAs(s.owner.token, 'TENANT_LOGO', await png(800, 400))).body.data;
    const coverRes = await uploadAs(s.owner.token, 'TENANT_COVER', await jpeg(3000, 1500), 'cover.jpg');
    expect(coverRes.status, JSON.stringify(coverRes.body)).to.equal(201);
    cover = coverRes.body.data;
  });

  it('when the owner signs the logo then the URL carries the preset rs:fit:200:200/q:90 and renders a 200x100 WebP, cached on the second request', async () => {
    const signed = await s.as('OWNER', 'get', `/image-proxy/sign?key=${encodeURIComponent(logo.key)}`);
    expect(signed.status, JSON.stringify(signed.body)).to.equal(200);
    expect(signed.body.data.options).to.equal('rs:fit:200:200/q:90');
    const first = await render(signed.body.data.url, { accept: 'image/webp,image/*' });
    expect(first.status).to.equal(200);
    expect(first.headers['content-type']).to.equal('image/webp');
    expect(first.headers['cache-control']).to.match(/^public, max-age=\d+, immutable$/);
    expect(Number(/max-age=(\d+)/.exec(first.headers['cache-control'])![1])).to.be.greaterThan(6 * 86400);
    expect(first.headers['x-image-cache']).to.equal('MISS');
    expect(first.headers.vary).to.include('Accept');
    const meta = await sharp(first.body as Buffer).metadata();
    expect([meta.format, meta.width, meta.height]).to.deep.equal(['webp', 200, 100]);
    const second = await render(signed.body.data.url, { accept: 'image/webp,image/*' });
    expect(second.headers['x-image-cache']).to.equal('HIT');
    expect(second.headers.etag).to.equal(first.headers.etag);
    expect((second.body as Buffer).equals(first.body as Buffer)).to.equal(true);
    const notModified = await render(signed.body.data.url, { accept: 'image/webp', 'if-none-match': first.headers.etag });
    expect(notModified.status).to.equal(304);
    const variants = await (await stack()).platform.knex('uploaded_file_variants').where({ fileId: logo.id });
    expect(variants).to.have.length(1);
  });

  it('when the cover is rendered then it is filled to 1920x480 (smart gravity), AVIF when accepted, JPEG otherwise', async () => {
    // the key may be sent as it is (its / unencoded)
    const signed = await s.as('STAFF', 'get', `/image-proxy/sign?key=${cover.key}`);
    expect(signed.body.data.options).to.equal('rs:fill:1920:480/g:sm/q:85');
    const avif = await render(signed.body.data.url, { accept: 'image/avif,image/webp,*/*' });
    expect(avif.headers['content-type']).to.equal('image/avif');
    const jpg = await render(signed.body.data.url, { accept: '*/*' });
    expect(jpg.headers['content-type']).to.equal('image/jpeg');
    const meta = await sharp(jpg.body as Buffer).metadata();
    expect([meta.format, meta.width, meta.height]).to.deep.equal(['jpeg', 1920, 480]);
    expect(jpg.headers.etag).to.not.equal(avif.headers.etag);
  });

  it('when w and h are given then they replace the preset (fit inside, no enlargement)', async () => {
    const signed = await s.as('OWNER', 'get', `/image-proxy/sign?key=${encodeURIComponent(cover.key)}&w=300&h=300&fit=fit&q=70`);
    expect(signed.body.data.options).to.equal('rs:fit:300:300/q:70');
    const res = await render(signed.body.data.url, { accept: 'image/jpeg' });
    const meta = await sharp(res.body as Buffer).metadata();
    expect([meta.width, meta.height]).to.deep.equal([300, 150]);
    const tooBig = await s.as('OWNER', 'get', `/image-proxy/sign?key=${encodeURIComponent(cover.key)}&w=2401`);
    expect(tooBig.status).to.equal(400);
  });

  it('when the signature, the options or the key are changed, or the URL expired, then 403', async () => {
    const signed = await s.as('OWNER', 'get', `/image-proxy/sign?key=${encodeURIComponent(logo.key)}`);
    const url = new URL(signed.body.data.url);
    const variants: [string, (u: URL) => void][] = [
      [
        'signature',
        (u) =>
          u.searchParams.set(
            'sig',
            u.searchParams.get('sig')!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
          ),
      ],
      ['options', (u) => u.searchParams.set('o', 'rs:fit:2000:2000/q:100')],
      ['key', (u) => u.searchParams.set('key', cover.key)],
      ['expiry pushed later', (u) => u.searchParams.set('exp', String(Number(u.searchParams.get('exp')) + 86400))],
    ];
    for (const [label, change] of variants) {
      const u = new URL(url);
      change(u);
      const res = await (await http()).get(u.pathname + u.search);
      expect(res.status, label).to.equal(403);
      expect(res.body.error.code, label).to.equal('IMAGE_SIGNATURE_INVALID');
    }
    // an expired URL, signed correctly, is refused too
    const { platform } = await stack();
    const old = await signImageUrl(
      { knex: platform.knex, storage: platform.deps.storage, secret: platform.deps.config.storage.imageProxySecret, publicBaseUrl: 'http://x' },
      { role: 'OWNER', tenantId: s.tenant.id },
      { key: logo.key },
      Date.now() - 9 * 86400_000,
    );
    const expired = await (await http()).get(new URL(old.url).pathname + new URL(old.url).search);
    expect([expired.status, expired.body.error.code]).to.deep.equal([403, 'IMAGE_SIGNATURE_INVALID']);
  });

  it("when another salon signs this salon's key then 403 UPLOAD_TENANT_MISMATCH; nobody signed in is 401", async () => {
    const res = await other.as('OWNER', 'get', `/image-proxy/sign?key=${encodeURIComponent(logo.key)}`);
    expect([res.status, res.body.error.code]).to.deep.equal([403, 'UPLOAD_TENANT_MISMATCH']);
    expect((await s.as('NONE', 'get', `/image-proxy/sign?key=${encodeURIComponent(logo.key)}`)).status).to.equal(401);
  });

  it("when a signed-in customer signs a salon's public image then the URL renders; a bad customer token is 401", async () => {
    const customer = await signInCustomer();
    const res = await call('get', `/image-proxy/sign?key=${encodeURIComponent(logo.key)}`, customer.accessToken);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const url = new URL(res.body.data.url);
    expect((await (await http()).get(url.pathname + url.search)).status).to.equal(200);
    expect((await call('get', `/image-proxy/sign?key=${encodeURIComponent(logo.key)}`, `${customer.accessToken}x`)).status).to.equal(401);
  });

  it("when a signed-in customer asks for any size, quality, gravity or fit then 403 and nothing is signed: customers get the purpose's preset only", async () => {
    const customer = await signInCustomer();
    for (const query of ['w=2400&h=2400', 'q=100', 'g=no', 'fit=fill', 'w=17']) {
      const res = await call('get', `/image-proxy/sign?key=${encodeURIComponent(logo.key)}&${query}`, customer.accessToken);
      expect([res.status, res.body.error?.code], query).to.deep.equal([403, 'FORBIDDEN']);
    }
    const preset = await call('get', `/image-proxy/sign?key=${encodeURIComponent(logo.key)}`, customer.accessToken);
    expect(preset.body.data.options).to.equal('rs:fit:200:200/q:90');
  });

  it('when a file has 16 rendered variants then each renders and stays; a 17th variant is 422 IMAGE_VARIANT_LIMIT_REACHED and is not stored, while the 16 still answer', async () => {
    const file = (await uploadAs(s.owner.token, 'PORTFOLIO_PHOTO', await png(64, 64))).body.data as { id: string; key: string };
    const urls: string[] = [];
    for (let w = 1; w <= 17; w++) {
      const signed = await s.as('OWNER', 'get', `/image-proxy/sign?key=${encodeURIComponent(file.key)}&w=${w}&h=${w}`);
      expect(signed.status).to.equal(200);
      urls.push(signed.body.data.url);
    }
    for (const url of urls.slice(0, 16)) expect((await render(url)).status, url).to.equal(200);
    const past = await render(urls[16]);
    expect([past.status, JSON.parse(past.body.toString()).error.code]).to.deep.equal([422, 'IMAGE_VARIANT_LIMIT_REACHED']);
    const { platform } = await stack();
    expect(await platform.knex('uploaded_file_variants').where({ fileId: file.id })).to.have.length(16);
    const again = await render(urls[3]);
    expect([again.status, again.headers['x-image-cache']]).to.deep.equal([200, 'HIT']);
  });
});
