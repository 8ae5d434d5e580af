// The image proxy's option strings (docs/rules/uploads.md#image-proxy, imgproxy-style): `rs:{fit|fill}:{w}:{h}`,
// `g:{sm|ce|no|so|ea|we}`, `q:{1-100}`, joined by `/`. Pure.

export type Fit = 'fit' | 'fill';
export type Gravity = 'sm' | 'ce' | 'no' | 'so' | 'ea' | 'we';

export interface ProxyOptions {
  fit: Fit;
  width: number;
  height: number;
  gravity: Gravity;
  quality: number;
}

export const MAX_PROXY_SIDE = 2400;
/**
 * Rendered variants kept per file (docs/rules/uploads.md#image-proxy): a preset in four formats and
 * the staff's own sizes. Past it, a variant not rendered before is refused (422
 * IMAGE_VARIANT_LIMIT_REACHED): the files and the CPU an image costs are bounded.
 */
export const MAX_VARIANTS_PER_FILE = 16;
const GRAVITIES: readonly Gravity[] = ['sm', 'ce', 'no', 'so', 'ea', 'we'];

/** The canonical string of `options` (what is signed and what names the cached variant). */
export function formatOptions(o: ProxyOptions): string {
  return [`rs:${o.fit}:${o.width}:${o.height}`, ...(o.gravity !== 'ce' ? [`g:${o.gravity}`] : []), `q:${o.quality}`].join('/');
}

/** Parses an option string; undefined when any part is unknown or out of range. */
export function parseOptions(text: string): ProxyOptions | undefined {
  const options: ProxyOptions = { fit: 'fit', width: 0, height: 0, gravity: 'ce', quality: 85 };
  let resized = false;
  for (const part of text.split('/')) {
    const [name, ...args] = part.split(':');
    if (name === 'rs' && args.length === 3 && (args[0] === 'fit' || args[0] === 'fill')) {
      if (!/^\d{1,4}$/.test(args[1]) || !/^\d{1,4}$/.test(args[2])) return undefined;
      const [w, h] = [Number(args[1]), Number(args[2])];
      if (!Number.isInteger(w) || !Number.isInteger(h) || w < 1 || h < 1 || w > MAX_PROXY_SIDE || h > MAX_PROXY_SIDE) return undefined;
      Object.assign(options, { fit: args[0], width: w, height: h });
      resized = true;
    } else if (name === 'g' && args.length === 1 && (GRAVITIES as readonly string[]).includes(args[0])) {
      options.gravity = args[0] as Gravity;
    } else if (name === 'q' && args.length === 1 && /^\d{1,3}$/.test(args[0]) && Number(args[0]) >= 1 && Number(args[0]) <= 100) {
      options.quality = Number(args[0]);
    } else {
      return undefined;
    }
  }
  return resized ? options : undefined;
}

/** The output format for an Accept header: AVIF, then WebP, else JPEG (PNG for a PNG source). */
export function outputFormat(accept: string | undefined, sourceMime: string): 'avif' | 'webp' | 'jpeg' | 'png' {
  const a = (accept ?? '').toLowerCase();
  if (a.includes('image/avif')) return 'avif';
  if (a.includes('image/webp')) return 'webp';
  return sourceMime === 'image/png' ? 'png' : 'jpeg';
}
