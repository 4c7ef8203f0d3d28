// `mws serve`: runs the proxy in the foreground until Ctrl-C or SIGTERM.
import { DEFAULT_AGENT_ID } from '../../core/config/schema.js';
import { agentUrl } from '../../core/config/agentUrl.js';
import { cliConfig, flagsTransform } from '../config.js';
import { createApp } from '../../core/app.js';
import { systemClock } from '../../core/clock.js';
import { stderrLogger } from '../../core/log.js';
import { defaultStateDir } from '../../core/config/paths.js';
import type { Io } from '../output.js';
import { shellLine } from '../../core/printable.js';

export type ServeOptions = { config: string | undefined; port: number | undefined; demo: boolean };

export async function runServe(io: Io, opts: ServeOptions): Promise<number> {
  const loaded = await cliConfig(opts);
  const config = loaded.config;
  if (Object.keys(config.upstreams).length === 0) {
    io.err(
      `mws: no upstream is configured in ${loaded.path}${loaded.exists ? '' : ' (the file does not exist)'}; only the meta-tools will be listed. Run "mws init" or pass --demo.`,
    );
  }

  // The last safety net of a proxy that runs for months: a promise rejection nobody handled (a bug
  // in a request path the listener's own net did not cover) is logged, never the end of the process.
  const onUnhandled = (err: unknown) =>
    stderrLogger.warn(`internal error (the proxy keeps running): ${(err as Error)?.stack ?? String(err)}`);
  process.on('unhandledRejection', onUnhandled);
  // The demo is served when --demo meets a config without upstreams (cli/config.ts applyDemo).
  const demo = opts.demo && Object.keys(loaded.raw.upstreams ?? {}).length === 0 && loaded.raw.upstream === undefined;
  const app = createApp({
    config,
    clock: systemClock,
    log: stderrLogger,
    // A config without "stateDir" means the default folder, not the demo's (else every save would ask for a restart).
    configFile: { path: loaded.path, raw: loaded.raw, stateDirDefault: defaultStateDir() },
    transform: flagsTransform(opts),
    demo,
    lock: { command: demo ? 'mws serve --demo' : 'mws serve', waitMs: 5_000 },
  });
  const { url } = await app.start();
  const { url: window } = await app.control.uiLink({});
  // Behind a TLS-terminating proxy clients use its public origin, not the address listened on.
  const origin = config.listen.publicUrl ? new URL(config.listen.publicUrl).origin : url;
  const mcpUrl = agentUrl(origin, DEFAULT_AGENT_ID);
  const lines = [
    `Working Set is listening on ${mcpUrl}${config.defaultAgent ? '' : ' (the default agent is off: use an agent endpoint below)'}`,
  ];
  for (const agent of config.agents) {
    if (agent.id !== DEFAULT_AGENT_ID)
      lines.push(`  agent ${agent.id}: ${agentUrl(origin, agent.id)}${agent.token ? ' (needs its bearer token)' : ''}`);
  }
  const ups = Object.entries(config.upstreams).map(([vendor, u]) => (u.kind === 'builtin' ? 'the built-in demo toolbox' : vendor));
  lines.push(`Upstreams: ${ups.join(', ') || 'none yet (mws import moves in the servers your other clients use)'}`);
  lines.push(`State folder: ${config.stateDir}`);
  lines.push(
    `Add it to Claude Code:\n  ${shellLine(['claude', 'mcp', 'add', '--transport', 'http', config.serverName, mcpUrl]) ?? '(the serverName in the config holds control characters; fix it)'}`,
  );
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
  process.off('unhandledRejection', onUnhandled);
  return 0;
}
