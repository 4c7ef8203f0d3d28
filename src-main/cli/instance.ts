// Reaching the core: the CLI prefers a running instance (its live catalog, working sets and pending
// approvals) over HTTP /control, and otherwise starts the core headless on the same state files.
import type { Config } from '../core/config/schema.js';
import type { ControlApi } from '../core/control/api.js';
import { httpControlClient } from '../core/control/http.js';
import { readToken } from '../core/control/token.js';
import { createApp } from '../core/app.js';
import { systemClock } from '../core/clock.js';
import { silentLogger } from '../core/log.js';

/** How long to wait for a running instance before working without one. */
export const INSTANCE_PROBE_MS = 1500;

export type Control = { api: ControlApi; source: 'running instance' | 'config'; close: () => Promise<void> };

export function baseUrl(config: Config): string {
  const host = config.listen.host.includes(':') ? `[${config.listen.host}]` : config.listen.host;
  return `http://${host}:${config.listen.port}`;
}

async function running(config: Config): Promise<ControlApi | undefined> {
  const token = await readToken(config.stateDir);
  if (!token) return undefined;
  const api = httpControlClient(baseUrl(config), token);
  try {
    await Promise.race([api.status({}), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), INSTANCE_PROBE_MS).unref())]);
    return api;
  } catch (err) {
    // A running instance that refused us (wrong token, bad request) is still the one to talk to.
    if ((err as { code?: string }).code && (err as { code?: string }).code !== 'internal') return api;
    return undefined;
  }
}

export async function openControl(config: Config): Promise<Control> {
  const live = await running(config);
  if (live) return { api: live, source: 'running instance', close: async () => {} };
  const app = createApp({ config, clock: systemClock, log: silentLogger });
  await app.start({ listen: false, schedule: false });
  return { api: app.control, source: 'config', close: () => app.stop() };
}

export async function withControl<T>(config: Config, fn: (c: Control) => Promise<T>): Promise<T> {
  const c = await openControl(config);
  try {
    return await fn(c);
  } finally {
    await c.close();
  }
}
