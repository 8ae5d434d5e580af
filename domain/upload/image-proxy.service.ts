// The signed image proxy (docs/rules/uploads.md#image-proxy): GET /image-proxy/sign returns a URL the platform serves itself
// (GET /image-proxy/render), HMAC-SHA256 over key, options and expiry with IMAGE_PROXY_SECRET. A
// render resizes with sharp (fit or fill with gravity, quality, AVIF/WebP by Accept) and keeps the
// rendered variant in storage, so each variant is rendered once.
import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import type { Db } from '../../db/db-handle';
import { errors, uploadErrors } from '../errors';
import type { ObjectStorage } from './object-storage';
import * as repo from './upload.repository';
import { storageCall } from './storage-call';
import { MAX_IMAGE_PIXELS, PURPOSES, tenantOfKey, type UploadPurpose } from './upload.rules';
import {
  MAX_PROXY_SIDE,
  MAX_VARIANTS_PER_FILE,
  formatOptions,
  outputFormat,
  parseOptions,
  type Fit,
  type Gravity,
  type ProxyOptions,
} from './image-proxy.rules';

export interface ImageProxyDeps {
  knex: Db;
  storage: ObjectStorage;
  secret: string;
  /** e.g. http://localhost:3000 (signed URLs are absolute) */
  publicBaseUrl: string;
}

/** Signed URLs live a week, rounded up to a whole day so the same image signs to the same URL all day (cacheable). */
export const SIGNED_URL_DAYS = 7;
const DAY_S = 86_400;

export interface SignRequest {
  key: string;
  w?: number;
  h?: number;
  fit?: Fit;
  g?: Gravity;
  q?: number;
}

export interface SignCaller {
  role: string;
  /** staff: their tenant (keys of other salons are refused); customers may sign any public image, at its preset only */
  tenantId: string | null;
}

function signature(secret: string, key: string, options: string, exp: number): string {
  return crypto.createHmac('sha256', secret).update(`${key}\n${options}\n${exp}`).digest('base64url');
}

/** `now` (epoch ms) dates the URL: it stays valid SIGNED_URL_DAYS after the day it falls in. */
export async function signImageUrl(
  deps: ImageProxyDeps,
  caller: SignCaller,
  request: SignRequest,
  now: number,
): Promise<{ url: string; expiresAt: string; options: string }> {
  const owner = tenantOfKey(request.key);
  if (!owner) throw uploadErrors.notFound('No image has this key');
  if (caller.role !== 'CUSTOMER' && caller.role !== 'ADMIN' && caller.tenantId !== owner) throw uploadErrors.tenantMismatch();
  // customers get the purpose's preset and nothing else (docs/rules/uploads.md#image-proxy): their sizes would each be rendered and kept
  if (caller.role === 'CUSTOMER' && [request.w, request.h, request.q, request.g, request.fit].some((v) => v !== undefined)) {
    throw errors.forbidden("Customers sign an image at its purpose's preset only: send the key alone");
  }
  const file = await repo.findFileByKey(deps.knex, request.key);
  if (!file || file.visibility !== 'PUBLIC' || file.status !== 'ACTIVE') throw uploadErrors.notFound('No public image has this key');
  let options: ProxyOptions;
  if (request.w === undefined && request.h === undefined) {
    options = parseOptions(PURPOSES[file.purpose as UploadPurpose].preset!)!;
    if (request.q !== undefined) options.quality = request.q;
    if (request.g !== undefined) options.gravity = request.g;
    if (request.fit !== undefined) options.fit = request.fit;
  } else {
    const width = request.w ?? request.h!;
    const height = request.h ?? request.w!;
    if (width > MAX_PROXY_SIDE || height > MAX_PROXY_SIDE)
      throw errors.validation('Request validation failed', [{ field: request.w ? 'w' : 'h', message: `must be at most ${MAX_PROXY_SIDE}` }]);
    options = { fit: request.fit ?? 'fit', width, height, gravity: request.g ?? 'ce', quality: request.q ?? 85 };
  }
  const optionText = formatOptions(options);
  const exp = Math.ceil(now / 1000 / DAY_S) * DAY_S + SIGNED_URL_DAYS * DAY_S;
  const query = new URLSearchParams({ key: request.key, o: optionText, exp: String(exp), sig: signature(deps.secret, request.key, optionText, exp) });
  return { url: `${deps.publicBaseUrl}/api/image-proxy/render?${query.toString()}`, expiresAt: new Date(exp * 1000).toISOString(), options: optionText };
}

export interface RenderRequest {
  key: string;
  o: string;
  exp: number;
  sig: string;
  accept?: string;
  /** the client's If-None-Match */
  ifNoneMatch?: string;
}

export interface RenderedImage {
  body: Buffer | Readable;
  contentType: string;
  etag: string;
  /** seconds a cache may keep it */
  maxAge: number;
  cached: boolean;
  /** the client's copy is current: answer 304 without a body */
  notModified?: boolean;
}

function assertSigned(deps: ImageProxyDeps, r: RenderRequest, now: number): ProxyOptions {
  const expected = Buffer.from(signature(deps.secret, r.key, r.o, r.exp));
  const given = Buffer.from(r.sig);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given))
    throw uploadErrors.imageSignatureInvalid('The image URL signature is invalid');
  if (r.exp * 1000 < now) throw uploadErrors.imageSignatureInvalid('The image URL has expired; sign it again');
  const options = parseOptions(r.o);
  if (!options) throw uploadErrors.imageSignatureInvalid('The image URL carries unknown options');
  return options;
}

async function toBuffer(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) parts.push(chunk);
  return Buffer.concat(parts);
}

const GRAVITY: Record<Gravity, string | number> = { sm: sharp.strategy.attention, ce: 'centre', no: 'north', so: 'south', ea: 'east', we: 'west' };
const CONTENT_TYPES = { avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg', png: 'image/png' } as const;

/** `now` (epoch ms): whether the signed URL has expired, and how long the answer may be cached. */
export async function renderImage(deps: ImageProxyDeps, r: RenderRequest, now: number): Promise<RenderedImage> {
  const options = assertSigned(deps, r, now);
  const file = await repo.findFileByKey(deps.knex, r.key);
  if (!file || file.visibility !== 'PUBLIC' || file.status !== 'ACTIVE') throw uploadErrors.notFound('No public image has this key');
  const format = outputFormat(r.accept, file.mimeType);
  const variantId = crypto
    .createHash('sha256')
    .update(`${file.key}\n${formatOptions(options)}\n${format}`)
    .digest('hex')
    .slice(0, 32);
  const variantKey = `${file.tenantId}/variants/${file.id}/${variantId}.${format === 'jpeg' ? 'jpg' : format}`;
  const etag = `"${variantId}"`;
  const maxAge = Math.max(0, Math.min(r.exp - Math.floor(now / 1000), SIGNED_URL_DAYS * DAY_S + DAY_S));
  const contentType = CONTENT_TYPES[format];
  if (r.ifNoneMatch && r.ifNoneMatch.split(/\s*,\s*/).includes(etag))
    return { body: Buffer.alloc(0), contentType, etag, maxAge, cached: true, notModified: true };
  const cached = await storageCall(() => deps.storage.read(variantKey));
  if (cached) return { body: cached, contentType, etag, maxAge, cached: true };

  if (!(await repo.reserveVariant(deps.knex, file.id, variantKey, MAX_VARIANTS_PER_FILE))) throw uploadErrors.imageVariantLimit(MAX_VARIANTS_PER_FILE);
  try {
    return await renderVariant(deps, file, options, format, variantKey, { contentType, etag, maxAge });
  } catch (err) {
    await repo.forgetVariant(deps.knex, file.id, variantKey);
    throw err;
  }
}

async function renderVariant(
  deps: ImageProxyDeps,
  file: repo.UploadedFileRow,
  options: ProxyOptions,
  format: 'avif' | 'webp' | 'jpeg' | 'png',
  variantKey: string,
  answer: { contentType: (typeof CONTENT_TYPES)[keyof typeof CONTENT_TYPES]; etag: string; maxAge: number },
): Promise<RenderedImage> {
  const { contentType, etag, maxAge } = answer;
  const original = await storageCall(() => deps.storage.read(file.key));
  if (!original) throw uploadErrors.notFound('The image is missing from storage');
  const source = await storageCall(() => toBuffer(original));
  let image = sharp(source, { limitInputPixels: MAX_IMAGE_PIXELS })
    .rotate()
    .resize({
      width: options.width,
      height: options.height,
      fit: options.fit === 'fill' ? 'cover' : 'inside',
      position: GRAVITY[options.gravity],
      withoutEnlargement: true,
    });
  if (format === 'avif') image = image.avif({ quality: options.quality, effort: 2 });
  else if (format === 'webp') image = image.webp({ quality: options.quality });
  else if (format === 'png') image = image.png({ quality: options.quality });
  else image = image.jpeg({ quality: options.quality });
  const rendered = await image.toBuffer();
  await storageCall(() =>
    deps.storage.put(variantKey, rendered, { contentType, contentLength: rendered.length, cacheControl: 'public, max-age=31536000, immutable' }),
  );
  return { body: rendered, contentType, etag, maxAge, cached: false };
}
