// The window in real Chromium, at 1280 and 800 px, against a real `mws serve`: adding an upstream under a taken name asks "Replace memory?" and changes nothing when the
// answer is no; yes replaces it and keeps a .bak. The import screen greys Working Set's own entry and
// a duplicate with the reason, and imports a taken name under another one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { httpControlClient } from '../../src-main/core/control/transport/http.js';
import { ROOT, deadPort, spawnTs, type Running, listeningBase } from '../helpers/processes.js';
import { tempDir } from '../helpers/app.js';
import { launchChromium } from '../helpers/browser.js';

const MWS = join(ROOT, 'src-main', 'cli', 'run.ts');
let browser: Browser;
let serve: Running;
let dir: string;
let cfg: string;
let stateDir: string;
let base: string;

const memory = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], env: { MEMORY_FILE_PATH: '/home/d/memory.json' } };
const onDisk = () => JSON.parse(readFileSync(cfg, 'utf8')) as { upstreams: Record<string, unknown> };

async function open(hash: string, width: number): Promise<Page> {
  const token = readFileSync(join(stateDir, 'control-token'), 'utf8').trim();
  const { url } = await httpControlClient(base, token).uiLink({});
  const page = await browser.newPage({ viewport: { width, height: 800 } });
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(url);
  await page.evaluate((h) => (location.hash = h), hash);
  await page.getByTestId('status').waitFor();
  return page;
}

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'out', 'renderer', 'index.html')))
    throw new Error('The window is not built: run `npm run build` first (npm test does).');
  browser = await launchChromium();
  dir = tempDir();
  cfg = join(dir, 'config.json');
  stateDir = join(dir, 'state');
  const home = join(dir, 'home');
  mkdirSync(join(home, '.cursor'), { recursive: true });
  writeFileSync(cfg, JSON.stringify({ upstreams: { memory }, stateDir, listen: { port: 0 }, timeouts: { listMs: 2_000 } }, null, 2));
  serve = spawnTs(MWS, ['serve', '--config', cfg], { HOME: home, XDG_CONFIG_HOME: join(home, '.config') });
  base = await listeningBase(serve);
  writeFileSync(
    join(home, '.cursor', 'mcp.json'),
    JSON.stringify(
      {
        mcpServers: {
          toolbox: { url: `${base}/mcp` },
          memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
          'memory-too': memory,
          fresh: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)', 'fresh'] },
        },
      },
      null,
      2,
    ),
  );
}, 60_000);

afterAll(async () => {
  await serve?.kill();
  await browser?.close();
});

describe.each([1280, 800])('at %i px', (width) => {
  it('asks before replacing an upstream, changes nothing on no, and keeps a .bak on yes', async () => {
    const page = await open('#/upstreams', width);
    // The screen has its rows (the server answered it) before the form is used.
    await page.getByTestId('status-memory').waitFor({ timeout: 60_000 });
    const before = readFileSync(cfg, 'utf8');
    await page.getByLabel('Upstream name').fill('memory');
    await page.getByLabel('URL').fill('http://127.0.0.1:9/mcp');
    let asked = '';
    page.once('dialog', (d) => {
      asked = d.message();
      void d.dismiss();
    });
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    // On a loaded machine the save's round trip can take seconds; if it fails instead, say what the window showed.
    const shown = async () => (await page.locator('[role=alert], .field-error').allTextContents()).join(' | ') || 'no error shown';
    await expect
      .poll(async () => asked || `no dialog yet (${await shown()})`, { timeout: 45_000, message: 'the window asks "Replace memory?"' })
      .toMatch(/^Replace memory\?/);
    expect(readFileSync(cfg, 'utf8')).toBe(before);
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect
      .poll(() => JSON.stringify(onDisk().upstreams.memory), { timeout: 45_000, message: 'the accepted replace is saved' })
      .toBe(JSON.stringify({ url: 'http://127.0.0.1:9/mcp' }));
    const baks = readdirSync(dir).filter((f) => /^config\.json\..+\.bak$/.test(f));
    expect(
      baks.some((b) => JSON.stringify(JSON.parse(readFileSync(join(dir, b), 'utf8')).upstreams.memory) === JSON.stringify(memory)),
    ).toBe(true);
    // Put it back for the next width (through the API, as an edit says it replaces).
    const token = readFileSync(join(stateDir, 'control-token'), 'utf8').trim();
    await httpControlClient(base, token).saveUpstream({ vendor: 'memory', upstream: memory, replace: true });
    await page.close();
  }, 150_000);

  it('greys Working Set itself and a duplicate with the reason, and imports a taken name as another', async () => {
    const page = await open('#/import', width);
    await page.getByTestId('import-row-toolbox').waitFor();
    expect(await page.getByTestId('blocked-toolbox').textContent()).toMatch(/it is Working Set itself/);
    expect(await page.getByTestId('blocked-memory-too').textContent()).toMatch(/same server as the upstream "memory"/);
    expect(await page.getByLabel('Import toolbox').isDisabled()).toBe(true);
    expect(await page.getByLabel('Import memory-too').isChecked()).toBe(false);
    expect(await page.getByTestId('blocked-memory').textContent()).toMatch(/an upstream named "memory" already exists/);
    const as = page.getByLabel('Import memory as');
    expect(await as.inputValue()).toBe('memory-2');
    await as.fill(`memory-${width}`);
    expect(await page.getByLabel('Import memory', { exact: true }).isChecked()).toBe(true);
    await page.getByRole('button', { name: /^Add \d server/ }).click();
    await page.getByTestId('import-result').waitFor();
    expect(await page.getByTestId('import-result').textContent()).toContain(`memory as memory-${width}`);
    expect(onDisk().upstreams[`memory-${width}`]).toEqual({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] });
    expect(onDisk().upstreams.memory).toEqual(memory);
    expect(Object.keys(onDisk().upstreams)).not.toContain('toolbox');
    await page.close();
    // Back to one memory for the next width.
    const token = readFileSync(join(stateDir, 'control-token'), 'utf8').trim();
    const api = httpControlClient(base, token);
    for (const v of Object.keys(onDisk().upstreams).filter((k) => k !== 'memory')) await api.removeUpstream({ vendor: v });
  }, 60_000);
});

describe('General → Save with --port', () => {
  it("shows the config's port, says which one this run listens on, and saves without writing --port into the file", async () => {
    const d = tempDir();
    const file = join(d, 'config.json');
    const sd = join(d, 'state');
    const configured = await deadPort();
    writeFileSync(file, JSON.stringify({ upstreams: {}, stateDir: sd, listen: { port: configured } }, null, 2));
    const s = spawnTs(MWS, ['serve', '--config', file, '--port', '0'], { HOME: join(d, 'home') });
    try {
      const b = await listeningBase(s, 'mws serve --port 0');
      const token = readFileSync(join(sd, 'control-token'), 'utf8').trim();
      const { url } = await httpControlClient(b, token).uiLink({});
      const page = await browser.newPage({ viewport: { width: 800, height: 800 } });
      await page.goto(url);
      await page.evaluate(() => (location.hash = '#/general'));
      await expect.poll(() => page.getByLabel('Port').inputValue()).toBe(String(configured));
      expect(await page.getByTestId('listening-port').textContent()).toBe(new URL(b).port);
      await page.getByLabel('Compact descriptions (first paragraph only)').check();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Saved.').waitFor();
      const saved = JSON.parse(readFileSync(file, 'utf8')) as { listen: { port: number }; compactDescriptions: boolean };
      expect(saved).toMatchObject({ listen: { port: configured }, compactDescriptions: true });
      await page.close();
    } finally {
      await s.kill();
    }
  }, 60_000);
});
