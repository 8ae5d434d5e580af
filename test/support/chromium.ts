// Debian's chromium for the browser tests (driven by playwright-core, which downloads nothing).
// ensureChromium() installs it with apt-get when it is missing and we are root (a fresh machine or
// CI running `npm ci && npm test`); otherwise it fails with what to run. The tests never skip.
//
//   launchChromium(): a headless browser context with a fresh, empty profile folder; close it
//   with `close()` (which also removes the folder).
//   sharedBrowser(): one headless browser for the whole run (the booking page tests open a fresh
//   context per test on it); the root hook closes it after the run.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export function ensureChromium(log: (line: string) => void = (l) => console.error(l)): string {
  if (fs.existsSync(CHROMIUM_PATH)) return CHROMIUM_PATH;
  if (process.getuid?.() !== 0) {
    throw new Error(`The browser tests need Debian's chromium at ${CHROMIUM_PATH}; install it with: sudo apt-get install -y chromium`);
  }
  log(`${CHROMIUM_PATH} is missing: installing Debian's chromium (apt-get install -y chromium) for the browser tests`);
  const install = () =>
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  try {
    install();
  } catch {
    // A fresh image has no package lists yet.
    execFileSync('apt-get', ['update'], { stdio: ['ignore', 'ignore', 'inherit'] });
    install();
  }
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`apt-get install chromium did not provide ${CHROMIUM_PATH}`);
  return CHROMIUM_PATH;
}

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

let shared: Promise<Browser> | undefined;

export function sharedBrowser(): Promise<Browser> {
  shared ??= chromium.launch({ executablePath: ensureChromium(), headless: true, args: FLAGS });
  return shared;
}

export async function closeSharedBrowser(): Promise<void> {
  if (!shared) return;
  const browser = await shared;
  shared = undefined;
  await browser.close();
}

export interface ChromiumSession {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<ChromiumSession> {
  const executablePath = ensureChromium();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args: FLAGS });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

if (require.main === module) {
  // `npm test` runs this first so a missing browser is installed (or named) before mocha starts.
  try {
    ensureChromium();
  } catch (e) {
    console.error((e as Error).message);
    process.exit(1);
  }
}
