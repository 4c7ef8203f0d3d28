// The desktop app as a console for a remote Working Set: the built Electron main process (through its
// recording stub, as desktopShell.test.ts runs it) pointed at a real remote `mws serve` whose operators
// sign in at a real OpenID provider. The app starts the device sign-in and opens its link (a real
// browser confirms it); the tray then shows the remote's agents, a demotion on the remote becomes a
// desktop notification, and when the remote goes away the tray says so and reconnects when it is back.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { CLI_CLIENT, startOidcFixture, type OidcFixture } from '../fixtures/oidc/server.js';
import { tempDir } from '../helpers/app.js';
import { launchChromium } from '../helpers/browser.js';
import { listeningBase, ROOT, spawnMws, type Running } from '../helpers/processes.js';
import { until, WAIT_MS } from '../helpers/wait.js';
import { httpControlClient } from '../../src-main/core/control/transport/httpClient.js';

let oidc: OidcFixture;
let browser: Browser;
let serve: Running;
let remoteConfig: string;
let remoteState: string;
let base: string;

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'out/main/index.js'))) throw new Error('Build first: npm run build (npm test does).');
  oidc = await startOidcFixture();
  const dir = tempDir('mws-remote-');
  remoteState = join(dir, 'state');
  remoteConfig = join(dir, 'config.json');
  writeFileSync(
    remoteConfig,
    JSON.stringify({
      upstreams: { demo: { builtin: 'demo' } },
      stateDir: remoteState,
      listen: { port: 0 },
      operators: { issuer: oidc.issuer, scope: 'openid mcp', cli: { clientId: CLI_CLIENT } },
      agents: [{ id: 'default' }],
    }),
  );
  serve = spawnMws(['serve', '--config', remoteConfig]);
  base = await listeningBase(serve);
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await serve?.kill();
  await browser?.close();
  await oidc?.close();
});

type Report = {
  trays: string[][];
  notices: Array<{ title: string; body: string }>;
  opened: string[];
  errors: string[];
  quitCompleted: boolean;
};

function readReport(path: string): Report | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Report;
  } catch {
    return undefined; // not written yet, or caught mid-write
  }
}

describe('the desktop app as a console for a remote instance', () => {
  it('signs in, shows the remote agents and notifications, and reconnects when the remote comes back', async () => {
    const userData = tempDir('mws-userdata-');
    writeFileSync(join(userData, 'preferences.json'), JSON.stringify({ remote: base }));
    const laptop = tempDir('mws-laptop-');
    const laptopConfig = join(laptop, 'config.json');
    writeFileSync(laptopConfig, JSON.stringify({ stateDir: join(laptop, 'state') }));
    const reportPath = join(laptop, 'report.json');
    const shell: ChildProcess = spawn(
      process.execPath,
      ['--import', join(ROOT, 'test/fixtures/electron/register.mjs'), join(ROOT, 'out/main/index.js')],
      {
        env: {
          ...process.env,
          MWS_CONFIG: laptopConfig,
          ELECTRON_STUB_SCENARIO: 'console',
          ELECTRON_STUB_REPORT: reportPath,
          ELECTRON_STUB_APP_PATH: ROOT,
          ELECTRON_STUB_USER_DATA: userData,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    shell.stderr!.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((r) => shell.once('exit', (code) => r(code)));
    const lastTray = () => readReport(reportPath)?.trays.at(-1) ?? [];
    const trayShows = (what: string, pred: (t: string[]) => boolean, ms = WAIT_MS) =>
      until(() => pred(lastTray()), `the tray to show ${what}; it shows ${JSON.stringify(lastTray())}; stderr: ${stderr.slice(-400)}`, ms);
    try {
      // No sign-in kept for that instance: the app starts one and opens its link in the browser.
      oidc.signInAs('alice');
      const link = await until(() => readReport(reportPath)?.opened[0], `the app to open a sign-in link; stderr: ${stderr.slice(-400)}`);
      const page = await browser.newPage();
      await page.goto(link);
      await page.click('#confirm', { timeout: WAIT_MS });
      await page.waitForSelector('#done', { timeout: WAIT_MS });
      await page.close();

      await trayShows('the remote instance', (t) => t.includes(`Console of ${base}`) && t.includes('Upstreams: 1 of 1 upstream up'));
      expect(lastTray()).toEqual(
        expect.arrayContaining([
          `Listening on ${base}/mcp`,
          expect.stringMatching(/^Default — 0 of 20 tools listed ▸$/),
          "Use this computer's Working Set",
        ]),
      );

      // A demotion on the remote (its admin lowers a cap) becomes this app's notification.
      const admin = httpControlClient(base, readFileSync(join(remoteState, 'control-token'), 'utf8').trim());
      await admin.promote({ agent: 'default', tool: 'mail_list_labels' });
      await admin.promote({ agent: 'default', tool: 'mail_get_message' });
      await admin.updateAgent({ id: 'default', cap: 1 });
      await admin.cycle({});
      const notice = await until(
        () => readReport(reportPath)?.notices.find((n) => /over the working-set cap/.test(n.body)),
        'a demotion notice from the remote',
      );
      expect(notice.title).toMatch(/Default/);

      // The remote goes away: the tray says so; it comes back on its port: the console reconnects.
      const port = new URL(base).port;
      await serve.kill();
      await trayShows('the console reconnecting', (t) => t.includes(`Console of ${base} — reconnecting…`));
      serve = spawnMws(['serve', '--config', remoteConfig, '--port', port]);
      expect(await listeningBase(serve)).toBe(base);
      await trayShows('the remote again', (t) => t.includes(`Console of ${base}`) && t.includes('Upstreams: 1 of 1 upstream up'), 45_000);
    } finally {
      shell.kill('SIGUSR2');
    }
    expect(await exited).toBe(0);
    const report = readReport(reportPath)!;
    expect(report.errors).toEqual([]);
    expect(report.quitCompleted).toBe(true);
  }, 120_000);
});
