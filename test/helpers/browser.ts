// Debian's Chromium through playwright-core: never a downloaded browser. playwright-core gives each
// launch a fresh temporary profile of its own.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { ROOT } from './processes.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENS = join(ROOT, 'test-results', 'screens');

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Browser tests need Debian's Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH).`);
  }
  mkdirSync(SCREENS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
