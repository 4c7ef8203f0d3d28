// An in-process app on an OS-assigned loopback port (port 0), and SDK clients of either era pointed at it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, type Tool } from '@modelcontextprotocol/client';
import { validateConfig } from '../../src-main/core/config/validate.js';
import { createApp, type App } from '../../src-main/core/app.js';
import { systemClock } from '../../src-main/core/clock.js';
import { MemoryLogger } from '../../src-main/core/log.js';
import { WAIT_MS, withDeadline } from './wait.js';

/**
 * How long an upstream may take to answer tools/list in tests (the product's default is 5 s). A fixture
 * on loopback answers in milliseconds when the machine is idle, but seconds when both cores are busy;
 * a test that means a short budget (a hung upstream) sets `timeouts.listMs` itself.
 */
export const TEST_LIST_MS = 20_000;

export function tempDir(prefix = 'mws-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export type TestApp = { app: App; url: string; stateDir: string; log: MemoryLogger; stop: () => Promise<void> };

export async function startApp(raw: Record<string, unknown>, stateDir = tempDir()): Promise<TestApp> {
  const timeouts = { listMs: TEST_LIST_MS, ...(raw.timeouts as Record<string, unknown> | undefined) };
  const config = validateConfig({ stateDir, listen: { host: '127.0.0.1', port: 0 }, ...raw, timeouts }, stateDir);
  const log = new MemoryLogger();
  const app = createApp({ config, clock: systemClock, log });
  const { url } = await app.start();
  return { app, url, stateDir, log, stop: () => app.stop() };
}

export type TestClient = {
  client: Client;
  changes: Tool[][];
  /** The next announced list; rejects after `ms` (default WAIT_MS) naming what it waited for. */
  nextChange: (what?: string, ms?: number) => Promise<Tool[]>;
  /** Resolves with the first announced list (the latest one included) that satisfies `pred`; rejects after `ms` with `what` and the last list seen. */
  until: (pred: (tools: Tool[]) => boolean, what?: string, ms?: number) => Promise<Tool[]>;
  close: () => Promise<void>;
};

export async function connectClient(url: string, mode: 'auto' | 'legacy', name = `test-${mode}`): Promise<TestClient> {
  const changes: Tool[][] = [];
  const waiters: Array<(t: Tool[]) => void> = [];
  const client = new Client({ name, version: '1.0.0' }, {
    versionNegotiation: { mode },
    listChanged: {
      tools: {
        debounceMs: 0,
        onChanged: (err: Error | null, tools: Tool[] | null) => {
          if (err || !tools) return;
          changes.push(tools);
          waiters.splice(0).forEach((w) => w(tools));
        },
      },
    },
  } as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  // The list as the client first sees it: a 2025 client hears list_changed only once its event stream is
  // open, so a change made before that (an upstream coming up) reaches it only through this first list.
  const first = (await client.listTools()).tools;
  const latest = () => changes[changes.length - 1] ?? first;
  return {
    client,
    changes,
    nextChange: (what = `${name} to hear list_changed`, ms = WAIT_MS) =>
      withDeadline(new Promise<Tool[]>((resolve) => waiters.push(resolve)), what, ms),
    until: (pred, what = `${name} to hear a tool list that fits`, ms = WAIT_MS) => {
      const names = () =>
        latest()
          .map((t) => t.name)
          .join(', ') || 'none';
      const p = new Promise<Tool[]>((resolve) => {
        const last = latest();
        if (pred(last)) return resolve(last);
        const check = (tools: Tool[]) => (pred(tools) ? resolve(tools) : waiters.push(check));
        waiters.push(check);
      });
      return withDeadline(p, what, ms).catch((err: Error) => {
        throw new Error(`${err.message} Last list heard: ${names()}.`);
      });
    },
    close: () => client.close(),
  };
}

export function textOf(result: { content?: unknown }): string {
  const c = (result.content as Array<{ type: string; text?: string }> | undefined) ?? [];
  return c.map((x) => x.text ?? '').join('');
}

export type FileApp = TestApp & { configPath: string };

/** An in-process app whose config comes from a real config.json, so edits from the window and by hand can be tested. */
export async function startAppFromFile(raw: Record<string, unknown>): Promise<FileApp> {
  const dir = tempDir();
  const configPath = join(dir, 'config.json');
  const stateDir = join(dir, 'state');
  const fileRaw = { stateDir, listen: { host: '127.0.0.1', port: 0 }, ...raw };
  writeFileSync(configPath, JSON.stringify(fileRaw, null, 2));
  const timeouts = { listMs: TEST_LIST_MS, ...(raw.timeouts as Record<string, unknown> | undefined) };
  const config = validateConfig({ ...fileRaw, timeouts }, stateDir);
  const log = new MemoryLogger();
  const app = createApp({ config, clock: systemClock, log, configFile: { path: configPath, raw: fileRaw } });
  const { url } = await app.start();
  return { app, url, stateDir, log, configPath, stop: () => app.stop() };
}
