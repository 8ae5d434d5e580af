// Builds the customer booking page's browser code (docs/rules/booking-page.md) into hashed files under
// dist/public/assets, with a manifest the api reads to link them (web/vite.shared.mts). The front
// desk is its own build (web/vite.desk.config.mts), run after this one.
import path from 'node:path';
import { defineConfig } from 'vite';
import { browserBuild, here } from './vite.shared.mts';

export default defineConfig(
  browserBuild(
    {
      booking: path.resolve(here, 'src/booking.tsx'),
      return: path.resolve(here, 'src/return.ts'),
      styles: path.resolve(here, 'src/styles.css'),
    },
    { manifest: '.vite/manifest.json', emptyOutDir: true },
  ),
);
