// The window in real Chromium, at 1280 and 800 px, against a real `mws serve`: adding an upstream under a taken name asks "Replace memory?" and changes nothing when the
// answer is no; yes replaces it and keeps a .bak. The import screen greys Working Set's own entry and
// a duplicate with the reason, and imports a taken name under another one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { httpControlClient } from '../../src-main/core/control/transport/httpClient.js';
import { ROOT, deadPort, spawnTs, listeningBase } from '../helpers/processes.js';
import { serveWithWindow, type WindowServe } from '../helpers/windowServe.js';
import { tempDir } from '../helpers/app.js';

const MWS = join(ROOT, 'src-main', 'cli', 'run.ts');
let w: WindowServe;

const memory = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], env: { MEMORY_FILE_PATH: '/home/d/memory.json' } };
const onDisk = () => JSON.parse(readFileSync(w.cfg, 'utf8')) as { upstreams: Record<string, unknown> };

const open = (hash: string, width: number): Promise<Page> => w.openWindow({ width, height: 800 }, { hash });

beforeAll(async () => {
  w = await serveWithWindow({ upstreams: { memory }, timeouts: { listMs: 2_000 } }, (dir) => {
    const home = join(dir, 'home');
    mkdirSync(join(home, '.cursor'), { recursive: true });
    return { HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
  });
  const home = join(w.dir, 'home');
  const base = w.base;
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
  await w?.stop();
});

describe.each([1280, 800])('at %i px', (width) => {
  it('asks before replacing an upstream, changes nothing on no, and keeps a .bak on yes', async () => {
    const page = await open('#/upstreams', width);
    // The screen has its rows (the server answered it) before the form is used.
    await page.getByTestId('status-memory').waitFor({ timeout: 60_000 });
    const before = readFileSync(w.cfg, 'utf8');
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
    expect(readFileSync(w.cfg, 'utf8')).toBe(before);
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect
      .poll(() => JSON.stringify(onDisk().upstreams.memory), { timeout: 45_000, message: 'the accepted replace is saved' })
      .toBe(JSON.stringify({ url: 'http://127.0.0.1:9/mcp' }));
    const baks = readdirSync(w.dir).filter((f) => /^config\.json\..+\.bak$/.test(f));
    expect(
      baks.some((b) => JSON.stringify(JSON.parse(readFileSync(join(w.dir, b), 'utf8')).upstreams.memory) === JSON.stringify(memory)),
    ).toBe(true);
    // Put it back for the next width (through the API, as an edit says it replaces).
    await w.control().saveUpstream({ vendor: 'memory', upstream: memory, replace: true });
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
    const api = w.control();
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
      const page = await w.browser.newPage({ viewport: { width: 800, height: 800 } });
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
