// Builds the front desk's browser code (docs/rules/front-desk.md) into hashed files beside the
// booking page's (web/vite.shared.mts), with a manifest of its own; run after web/vite.config.mts,
// which empties the folder.
import path from 'node:path';
import { defineConfig } from 'vite';
import { browserBuild, here } from './vite.shared.mts';

export default defineConfig(
  browserBuild(
    {
      desk: path.resolve(here, 'desk/main.tsx'),
      'desk-styles': path.resolve(here, 'desk/desk.css'),
    },
    { manifest: '.vite/desk-manifest.json', emptyOutDir: false },
  ),
);
