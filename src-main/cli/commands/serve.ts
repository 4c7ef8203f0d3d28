// `mws serve`: runs the proxy in the foreground until Ctrl-C or SIGTERM.
import { join } from 'node:path';
import { loadConfig } from '../../core/config/load.js';
import { resolveConfigPath } from '../../core/config/paths.js';
import { DEFAULT_AGENT_ID, SINGLE_UPSTREAM_KEY, type Config } from '../../core/config/schema.js';
import { DEMO_BACKEND_HINTS } from '../../core/demo/catalog.js';
import { createApp } from '../../core/app.js';
import { systemClock } from '../../core/clock.js';
import { stderrLogger } from '../../core/log.js';
import type { Io } from '../output.js';

export type ServeOptions = { config: string | undefined; port: number | undefined; demo: boolean };

/** With --demo and no upstream configured, the built-in demo toolbox is served, with its own state. */
export function applyDemo(config: Config): Config {
  if (Object.keys(config.upstreams).length > 0) return config;
  return {
    ...config,
    upstreams: { [SINGLE_UPSTREAM_KEY]: { kind: 'builtin', name: 'demo' } },
    prefixNames: false,
    backendHints: Object.keys(config.backendHints).length ? config.backendHints : DEMO_BACKEND_HINTS,
    // Its own state: a demo catalog must never stand in as the last-good list of a real upstream.
    stateDir: join(config.stateDir, 'demo'),
  };
}

export async function runServe(io: Io, opts: ServeOptions): Promise<number> {
  const loaded = await loadConfig(resolveConfigPath(opts.config));
  let config = loaded.config;
  if (opts.port !== undefined) config = { ...config, listen: { ...config.listen, port: opts.port } };
  if (opts.demo) config = applyDemo(config);
  if (Object.keys(config.upstreams).length === 0) {
    io.err(`mws: no upstream is configured in ${loaded.path}${loaded.exists ? '' : ' (the file does not exist)'}; only the meta-tools will be listed. Run "mws init" or pass --demo.`);
  }

  const app = createApp({ config, clock: systemClock, log: stderrLogger });
  const { url } = await app.start();
  const mcpUrl = `${url}/mcp`;
  const lines = [`Working Set is listening on ${mcpUrl}`];
  for (const agent of config.agents) if (agent.id !== DEFAULT_AGENT_ID) lines.push(`  agent ${agent.id}: ${mcpUrl}/${agent.id}`);
  lines.push(`Upstreams: ${Object.keys(config.upstreams).join(', ') || 'none'}   state: ${config.stateDir}`);
  lines.push(`Add it to Claude Code:\n  claude mcp add --transport http ${config.serverName} ${mcpUrl}`);
  lines.push('Press Ctrl-C to stop.');
  // One write, so whoever reads the banner sees it whole.
  io.out(lines.join('\n'));

  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      io.err(`mws: ${signal} received, stopping.`);
      resolve();
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  await app.stop();
  return 0;
}
