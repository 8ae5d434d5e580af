// What the two browser builds share (web/vite.config.mts, the customer pages; web/vite.desk.config.mts,
// the front desk): the output folder dist/public, a manifest the api reads to link the hashed files,
// and a brotli and a gzip copy of each file written beside it, so the api serves compressed bytes
// without compressing per request. Two builds, not two entries of one: the booking page and the desk
// share no chunk, so neither loads the other's code nor pays for its chunking.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Plugin, UserConfig } from 'vite';

export const here = import.meta.dirname;
export const outDir = path.resolve(here, '../dist/public');

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

/** One build of `input` into dist/public/assets, its manifest at dist/public/<manifest>. */
export function browserBuild(input: Record<string, string>, options: { manifest: string; emptyOutDir: boolean }): UserConfig {
  return {
    root: here,
    base: '/',
    publicDir: false,
    logLevel: 'warn',
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    build: {
      outDir,
      emptyOutDir: options.emptyOutDir,
      assetsDir: 'assets',
      manifest: options.manifest,
      target: 'es2020',
      sourcemap: false,
      modulePreload: { polyfill: false },
      rollupOptions: { input },
    },
    plugins: [precompress()],
  };
}
