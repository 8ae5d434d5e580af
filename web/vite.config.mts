// Builds the customer booking page's browser code (docs/rules/booking-page.md) into hashed files under
// dist/public/assets, with a manifest the api reads to link them, and a brotli and a gzip copy of
// each file written beside it, so the api serves compressed bytes without compressing per request.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

const here = import.meta.dirname;
const outDir = path.resolve(here, '../dist/public');

function precompress(): Plugin {
  return {
    name: 'salon-precompress',
    apply: 'build',
    writeBundle(_options, bundle) {
      for (const file of Object.keys(bundle)) {
        if (!/\.(js|css|svg|json)$/.test(file) || file.includes('.vite/')) continue;
        const full = path.join(outDir, file);
        const bytes = fs.readFileSync(full);
        fs.writeFileSync(
          `${full}.br`,
          zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
        );
        fs.writeFileSync(`${full}.gz`, zlib.gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  root: here,
  base: '/',
  publicDir: false,
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir,
    emptyOutDir: true,
    assetsDir: 'assets',
    manifest: true,
    target: 'es2020',
    sourcemap: false,
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: {
        booking: path.resolve(here, 'src/booking.tsx'),
        return: path.resolve(here, 'src/return.ts'),
        styles: path.resolve(here, 'src/styles.css'),
      },
    },
  },
  plugins: [precompress()],
});
