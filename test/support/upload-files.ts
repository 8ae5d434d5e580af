// Real files for the upload tests, generated on the fly (no binaries in the repository).
import sharp from 'sharp';
import type request from 'supertest';
import { http } from './http';

const colour = { r: 40, g: 120, b: 200 };

export function png(width = 320, height = 200): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

export function webp(width = 320, height = 200): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .webp()
    .toBuffer();
}

export function jpeg(width = 320, height = 200): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
}

/** A JPEG from a camera: EXIF with the make and a GPS position (Oslo). */
export function jpegWithGps(width = 320, height = 200): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'GPS 1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '59/1 54/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '10/1 45/1 0/1' },
    })
    .toBuffer();
}

/** 10000 x 6000 = 60 megapixels, small on disk (one flat grey channel compresses well). */
export function png60Megapixels(): Promise<Buffer> {
  return sharp(Buffer.alloc(10000 * 6000, 128), { raw: { width: 10000, height: 6000, channels: 1 } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** 10000 x 5000 = exactly 50 megapixels, the largest image accepted. */
export function png50Megapixels(): Promise<Buffer> {
  return sharp(Buffer.alloc(10000 * 5000, 128), { raw: { width: 10000, height: 5000, channels: 1 } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** A minimal valid PDF of `size` bytes or more. */
export function pdf(minSize = 400): Buffer {
  const body = '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n';
  return Buffer.concat([Buffer.from(body), Buffer.alloc(Math.max(0, minSize - body.length - 6), 0x20), Buffer.from('\n%%EOF')]);
}

/** A Linux executable's header (ELF), padded: what someone renames to logo.png. */
export function executable(size = 4096): Buffer {
  return Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(size - 8, 0x90)]);
}

/** A valid PNG padded with a trailing chunk to exactly `size` bytes (size >= the PNG itself). */
export async function pngOfSize(size: number): Promise<Buffer> {
  const base = await sharp({ create: { width: 2, height: 2, channels: 3, background: colour } })
    .png({ compressionLevel: 9 })
    .toBuffer();
  if (size < base.length) return base.subarray(0, size);
  return Buffer.concat([base, Buffer.alloc(size - base.length, 0)]);
}

export async function uploadAs(
  token: string | undefined,
  purpose: string | undefined,
  file: Buffer | undefined,
  name = 'image.png',
  contentType?: string,
): Promise<request.Response> {
  let req = (await http()).post('/api/upload');
  if (token) req = req.set('Authorization', `Bearer ${token}`);
  if (purpose !== undefined) req = req.field('purpose', purpose);
  if (file) req = req.attach('file', file, { filename: name, ...(contentType ? { contentType } : {}) });
  return req;
}
