// What we learn from the bytes of an upload, streamed: the file goes to a temp file as it arrives
// (never held in memory whole), the type comes from its magic bytes (file-type), an image's
// dimensions from its header (sharp reads the header only; nothing is decoded before the 50
// megapixel check), and the stored image is re-encoded without EXIF/GPS/ICC comments.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import sharp from 'sharp';
import { uploadErrors } from '../errors';
import { MAX_IMAGE_PIXELS, MIN_UPLOAD_BYTES, isAllowedMime, type UploadMime } from './upload.rules';

export interface ReceivedFile {
  path: string;
  sizeBytes: number;
  /** removes the temp file */
  discard(): Promise<void>;
}

class LimitExceeded extends Error {}

/** Streams `body` into a temp file, refusing it (413) as soon as it passes `maxBytes`. */
export async function receiveToTempFile(body: Readable, maxBytes: number): Promise<ReceivedFile> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'salon-upload-'));
  const file = path.join(dir, 'body');
  const discard = () => fs.promises.rm(dir, { recursive: true, force: true });
  let sizeBytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      sizeBytes += chunk.length;
      if (sizeBytes > maxBytes) return done(new LimitExceeded());
      done(null, chunk);
    },
  });
  try {
    await pipeline(body, counter, fs.createWriteStream(file));
  } catch (err) {
    await discard();
    body.resume(); // let the rest of the request drain so the answer can be sent
    if (err instanceof LimitExceeded) throw uploadErrors.tooLarge(maxBytes);
    throw err;
  }
  if (sizeBytes < MIN_UPLOAD_BYTES) {
    await discard();
    throw uploadErrors.tooSmall(MIN_UPLOAD_BYTES);
  }
  return { path: file, sizeBytes, discard };
}

/** The MIME type the magic bytes say, or undefined when file-type knows no such signature. */
export async function sniffFile(file: string): Promise<string | undefined> {
  const { fileTypeFromFile } = await import('file-type');
  return (await fileTypeFromFile(file))?.mime;
}

export async function sniffBuffer(head: Uint8Array): Promise<string | undefined> {
  const { fileTypeFromBuffer } = await import('file-type');
  return (await fileTypeFromBuffer(head))?.mime;
}

/**
 * The sniffed type checked against the allowlist (`allowed`) and the declared type:
 * UPLOAD_INVALID_TYPE when either is outside it, UPLOAD_TYPE_MISMATCH when they differ.
 */
export function checkType(sniffed: string | undefined, declared: string | undefined, allowed: readonly UploadMime[]): UploadMime {
  const declaredType = declared === 'image/jpg' ? 'image/jpeg' : declared;
  if (declaredType && declaredType !== 'application/octet-stream' && !(allowed as readonly string[]).includes(declaredType)) {
    throw uploadErrors.invalidType(`${declaredType} is not accepted here (allowed: ${allowed.join(', ')})`);
  }
  if (!sniffed || !isAllowedMime(sniffed) || !allowed.includes(sniffed)) {
    throw uploadErrors.invalidType(`The file's content is ${sniffed ?? 'of an unknown type'}, not one of ${allowed.join(', ')}`);
  }
  if (declaredType && declaredType !== 'application/octet-stream' && declaredType !== sniffed) {
    throw uploadErrors.typeMismatch(`The file was sent as ${declaredType} but its content is ${sniffed}`);
  }
  return sniffed;
}

/**
 * At most one re-encode per core at a time: a decoded image is width x height x channels bytes, so
 * 20 uploads at once would otherwise hold 20 decoded images (the rest wait on disk, not in memory).
 */
const encodeSlots = { free: Math.max(1, os.cpus().length), waiting: [] as (() => void)[] };

async function withEncodeSlot<T>(work: () => Promise<T>): Promise<T> {
  if (encodeSlots.free > 0) encodeSlots.free -= 1;
  else await new Promise<void>((resolve) => encodeSlots.waiting.push(resolve));
  try {
    return await work();
  } finally {
    const next = encodeSlots.waiting.shift();
    if (next) next();
    else encodeSlots.free += 1;
  }
}

export interface CleanImage {
  data: Buffer;
  width: number;
  height: number;
  checksumSha256: string;
}

/**
 * Header first: more than 50 megapixels is refused before any pixel is decoded. Then the image is
 * re-encoded in its own format, turned upright, without metadata (EXIF, GPS, XMP, comments).
 */
export async function cleanImage(file: string, mime: UploadMime): Promise<CleanImage> {
  const header = await sharp(file, { limitInputPixels: false }).metadata();
  const width = header.autoOrient?.width ?? header.width ?? 0;
  const height = header.autoOrient?.height ?? header.height ?? 0;
  if (!width || !height) throw uploadErrors.invalidType('The image has no readable dimensions');
  if (width * height > MAX_IMAGE_PIXELS) throw uploadErrors.dimensionsTooLarge(MAX_IMAGE_PIXELS / 1_000_000);
  let image = sharp(file, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' }).rotate();
  if (mime === 'image/png') image = image.png({ compressionLevel: 9, adaptiveFiltering: true });
  else if (mime === 'image/webp') image = image.webp({ quality: 90 });
  else image = image.jpeg({ quality: 90 });
  let data: Buffer;
  try {
    data = await withEncodeSlot(() => image.toBuffer());
  } catch {
    throw uploadErrors.invalidType('The image could not be read');
  }
  return { data, width, height, checksumSha256: crypto.createHash('sha256').update(data).digest('hex') };
}

/** SHA-256, size and the first bytes of a stream (the presigned upload's confirm). */
export async function digestStream(body: Readable): Promise<{ sizeBytes: number; checksumSha256: string; head: Buffer }> {
  const hash = crypto.createHash('sha256');
  let sizeBytes = 0;
  const headParts: Buffer[] = [];
  let headLength = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    hash.update(chunk);
    sizeBytes += chunk.length;
    if (headLength < 4100) {
      headParts.push(chunk.subarray(0, 4100 - headLength));
      headLength += Math.min(chunk.length, 4100 - headLength);
    }
  }
  return { sizeBytes, checksumSha256: hash.digest('hex'), head: Buffer.concat(headParts) };
}
