// An instance whose operators sign in at a real OpenID provider (test/fixtures/oidc), the demo toolbox
// behind it, and Debian's Chromium for the person signing in: what the operator sign-in tests share.
import { afterAll, beforeAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { startOidcFixture, type OidcFixture } from '../fixtures/oidc/server.js';
import { startApp, type TestApp } from './app.js';
import { launchChromium } from './browser.js';

export type OperatorsRig = { oidc: OidcFixture; s: TestApp; base: string; browser: Browser; stop: () => Promise<void> };

/** `clients`: the config's `operators.window` and/or `operators.cli`. */
export async function startOperatorsRig(clients: Record<string, unknown>): Promise<OperatorsRig> {
  const oidc = await startOidcFixture();
  const s = await startApp({
    upstream: { builtin: 'demo' },
    operators: { issuer: oidc.issuer, scope: 'openid mcp', ...clients },
    agents: [{ id: 'default' }],
  });
  const browser = await launchChromium();
  return {
    oidc,
    s,
    base: s.url.replace(/\/mcp$/, ''),
    browser,
    stop: async () => {
      await browser.close();
      await s.stop();
      await oidc.close();
    },
  };
}

/**
 * The rig for a test file: started before its tests (after `before`, e.g. a check that the window is
 * built) and stopped after them; its fields are there once the tests run.
 */
export function operatorsRig(clients: Record<string, unknown>, before?: () => void): OperatorsRig {
  const rig = {} as OperatorsRig;
  beforeAll(async () => {
    before?.();
    Object.assign(rig, await startOperatorsRig(clients));
  }, 60_000);
  afterAll(() => rig.stop?.());
  return rig;
}
