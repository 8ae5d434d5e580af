// A headless Chromium for the web UI test, driven by playwright-core (which downloads nothing):
// CHROMIUM_PATH, else Debian's /usr/bin/chromium (`apt-get install chromium`).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

// Flags for a closed network: no sandbox (root in CI), no GPU, no QUIC, no background traffic.
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface ChromiumSession {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<ChromiumSession> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!fs.existsSync(executablePath))
    throw new Error(`The web UI test needs Chromium at ${executablePath}: install it (apt-get install -y chromium) or set CHROMIUM_PATH`);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'temporal-server-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args: FLAGS });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
