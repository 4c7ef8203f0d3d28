// `mws serve`: runs the proxy in the foreground until Ctrl-C or SIGTERM.
import { DEFAULT_AGENT_ID } from '../../core/config/schema.js';
import { cliConfig, flagsTransform } from '../config.js';
import { createApp } from '../../core/app.js';
import { systemClock } from '../../core/clock.js';
import { stderrLogger } from '../../core/log.js';
import type { Io } from '../output.js';

export type ServeOptions = { config: string | undefined; port: number | undefined; demo: boolean };

export async function runServe(io: Io, opts: ServeOptions): Promise<number> {
  const loaded = await cliConfig(opts);
  const config = loaded.config;
  if (Object.keys(config.upstreams).length === 0) {
    io.err(`mws: no upstream is configured in ${loaded.path}${loaded.exists ? '' : ' (the file does not exist)'}; only the meta-tools will be listed. Run "mws init" or pass --demo.`);
  }

  const app = createApp({ config, clock: systemClock, log: stderrLogger, configFile: { path: loaded.path, raw: loaded.raw }, transform: flagsTransform(opts) });
  const { url } = await app.start();
  const { url: window } = await app.control.uiLink({});
  const mcpUrl = `${url}/mcp`;
  const lines = [`Working Set is listening on ${mcpUrl}`];
  for (const agent of config.agents) if (agent.id !== DEFAULT_AGENT_ID) lines.push(`  agent ${agent.id}: ${mcpUrl}/${agent.id}`);
  const ups = Object.entries(config.upstreams).map(([vendor, u]) => (u.kind === 'builtin' ? 'the built-in demo toolbox' : vendor));
  lines.push(`Upstreams: ${ups.join(', ') || 'none yet (mws import moves in the servers your other clients use)'}`);
  lines.push(`State folder: ${config.stateDir}`);
  lines.push(`Add it to Claude Code:\n  claude mcp add --transport http ${config.serverName} ${mcpUrl}`);
  lines.push(`Settings window (one-time link): ${window}`);
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
