// The built browser files of the customer pages and the front desk (web/, built by Vite into dist/public at install):
// their hashed names from Vite's manifest, and a handler that serves them with a year-long immutable
// cache (a new build has new names) in the compressed form the browser accepts (brotli or gzip
// copies written at build time).
import fs from 'node:fs';
import path from 'node:path';
import type { RequestHandler } from 'express';

interface ManifestEntry {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}

export interface PageAssets {
  /**
   * The stylesheet of every customer page (about 2 kB compressed), inlined into each page: the
   * first view paints from the HTML alone, one round trip sooner than with a linked file.
   */
  styles: string;
  /** URLs of the v2 booking page's script and the modules it imports */
  booking: { entry: string; imports: string[] };
  /** URLs of the payment return page's script and its imports */
  paymentReturn: { entry: string; imports: string[] };
  /** the front desk (docs/rules/front-desk.md): its script and imports, and its stylesheet's URL */
  desk: { entry: string; imports: string[]; styles: string };
}

interface AssetFile {
  path: string;
  type: string;
  size: number;
  br?: { path: string; size: number };
  gz?: { path: string; size: number };
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** dist/public, from source (api/pages) or compiled (dist/api/pages); undefined when not built. */
export function findPublicDir(from = __dirname): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    for (const candidate of [path.join(dir, 'public'), path.join(dir, 'dist', 'public')]) {
      if (fs.existsSync(path.join(candidate, '.vite', 'manifest.json'))) return candidate;
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

function entryOf(manifest: Record<string, ManifestEntry>, key: string): { entry: string; imports: string[] } {
  const entry = manifest[key];
  if (!entry) throw new Error(`the booking page build has no ${key} (run npm run build)`);
  const imports = (entry.imports ?? []).map((k) => `/${manifest[k].file}`);
  return { entry: `/${entry.file}`, imports };
}

export interface BuiltAssets {
  urls: PageAssets;
  files: Map<string, AssetFile>;
}

export function loadBuiltAssets(publicDir: string): BuiltAssets {
  const manifest = JSON.parse(fs.readFileSync(path.join(publicDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestEntry>;
  // the front desk is its own build (web/vite.desk.config.mts), with its own manifest
  const desk = JSON.parse(fs.readFileSync(path.join(publicDir, '.vite', 'desk-manifest.json'), 'utf8')) as Record<string, ManifestEntry>;
  const files = new Map<string, AssetFile>();
  const dir = path.join(publicDir, 'assets');
  for (const name of fs.readdirSync(dir)) {
    if (name.endsWith('.br') || name.endsWith('.gz')) continue;
    const full = path.join(dir, name);
    const variant = (suffix: string) => (fs.existsSync(full + suffix) ? { path: full + suffix, size: fs.statSync(full + suffix).size } : undefined);
    files.set(name, {
      path: full,
      type: TYPES[path.extname(name)] ?? 'application/octet-stream',
      size: fs.statSync(full).size,
      br: variant('.br'),
      gz: variant('.gz'),
    });
  }
  return {
    files,
    urls: {
      styles: fs.readFileSync(path.join(publicDir, manifest['src/styles.css'].file), 'utf8'),
      booking: entryOf(manifest, 'src/booking.tsx'),
      paymentReturn: entryOf(manifest, 'src/return.ts'),
      desk: { ...entryOf(desk, 'desk/main.tsx'), styles: `/${desk['desk/desk.css'].file}` },
    },
  };
}

/** GET /assets/<hashed name>: immutable, compressed when the browser accepts it. */
export function serveAssets(built: () => BuiltAssets | undefined): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const file = built()?.files.get(req.path.replace(/^\//, ''));
    if (!file) {
      res.status(404).type('text/plain').send('Not found');
      return;
    }
    const accepts = String(req.headers['accept-encoding'] ?? '');
    const chosen =
      file.br && /\bbr\b/.test(accepts)
        ? { ...file.br, encoding: 'br' }
        : file.gz && /\bgzip\b/.test(accepts)
          ? { ...file.gz, encoding: 'gzip' }
          : { path: file.path, size: file.size, encoding: undefined };
    res.setHeader('Content-Type', file.type);
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('Content-Length', String(chosen.size));
    if (chosen.encoding) res.setHeader('Content-Encoding', chosen.encoding);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    fs.createReadStream(chosen.path).on('error', next).pipe(res);
  };
}
