// `mws serve`: runs the proxy in the foreground until Ctrl-C or SIGTERM.
import { DEFAULT_AGENT_ID } from '../../core/config/schema.js';
import { agentUrl } from '../../core/config/agentUrl.js';
import { cliConfig, flagsTransform } from '../config.js';
import { createApp } from '../../core/app.js';
import { systemClock } from '../../core/clock.js';
import { jsonLogger, stderrLogger } from '../../core/log.js';
import { MwsError } from '../../core/errors.js';
import { defaultStateDir } from '../../core/config/paths.js';
import type { Io } from '../output.js';
import { shellLine } from '../../core/printable.js';
import { openSharedState } from '../../core/statestore/open.js';
import { validateConfig } from '../../core/config/validate.js';
import { exposeGc, idleCollector, onCollections } from '../../core/http/garbage.js';
import { boundYoungGeneration } from '../../core/http/youngGeneration.js';
import { untilStopSignal } from '../stopSignal.js';

export type ServeOptions = { config: string | undefined; port: number | undefined; demo: boolean; logFormat?: 'text' | 'json' };

export async function runServe(io: Io, opts: ServeOptions): Promise<number> {
  if (opts.logFormat !== 'json') return serve(io, opts);
  // A start-up refusal is an event too: one JSON line, the same sentence.
  try {
    return await serve(io, opts);
  } catch (err) {
    if (!(err instanceof MwsError)) throw err;
    jsonLogger().warn(err.message);
    return 1;
  }
}

async function serve(io: Io, opts: ServeOptions): Promise<number> {
  const json = opts.logFormat === 'json';
  const log = json ? jsonLogger() : stderrLogger;
  /** What serve itself says on stderr: a JSON line in json mode, its usual words otherwise. */
  const say = (m: string, level: 'info' | 'warn' = 'info') => (json ? log[level](m) : io.err(`mws: ${m}`));
  const loaded = await cliConfig(opts);
  // With PostgreSQL configured, the shared config in the database is the one served (statestore/open.ts).
  const shared = opts.demo ? undefined : await openSharedState({ config: loaded.config, fileRaw: loaded.raw, env: process.env, log });
  const raw = shared?.raw ?? loaded.raw;
  const config = shared ? flagsTransform(opts)(validateConfig(raw, defaultStateDir())) : loaded.config;
  if (!opts.demo && Object.keys(config.upstreams).length === 0) {
    say(
      `no upstream is configured in ${loaded.path}${loaded.exists ? '' : ' (the file does not exist)'}; only the meta-tools will be listed. Run "mws init" or pass --demo.`,
      'warn',
    );
  }

  // The last safety net of a proxy that runs for months: a promise rejection nobody handled (a bug
  // in a request path the listener's own net did not cover) is logged, never the end of the process.
  const onUnhandled = (err: unknown) => log.warn(`internal error (the proxy keeps running): ${(err as Error)?.stack ?? String(err)}`);
  process.on('unhandledRejection', onUnhandled);
  // A proxy that runs for months gives a burst's memory back with a full collection (http/garbage.ts).
  exposeGc();
  // And keeps V8's young generation small while no requests come (held since the launch: cli/launch.ts).
  boundYoungGeneration((f) => idleCollector.onRequests(f), onCollections);
  // --demo serves the demo whatever the file names (cli/config.ts applyDemo).
  const demo = opts.demo;
  const app = createApp({
    config,
    clock: systemClock,
    log,
    // A config without "stateDir" means the default folder, not the demo's (else every save would ask for a restart).
    configFile: {
      path: loaded.path,
      raw,
      stateDirDefault: defaultStateDir(),
      // The file's version as read here: a CLI finding the file still at it knows it is valid (cli/configLater.ts).
      ...(shared ? { source: shared.source, version: shared.version } : loaded.version ? { version: loaded.version } : {}),
    },
    ...(shared ? { stateStore: shared.store } : {}),
    transform: flagsTransform(opts),
    demo,
    lock: { command: demo ? 'mws serve --demo' : 'mws serve', waitMs: 5_000 },
  });
  let url: string;
  try {
    ({ url } = await app.start());
  } catch (err) {
    await shared?.store.close();
    throw err;
  }
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
  if (shared) lines.push(`Shared state: PostgreSQL at ${shared.where} (config version ${shared.version ?? 'none'})`);
  lines.push(
    `Add it to Claude Code:\n  ${shellLine(['claude', 'mcp', 'add', '--transport', 'http', config.serverName, mcpUrl]) ?? '(the serverName in the config holds control characters; fix it)'}`,
  );
  lines.push(`Settings window (one-time link): ${window}`);
  lines.push('Press Ctrl-C to stop.');
  // One write, so whoever reads the banner sees it whole.
  io.out(lines.join('\n'));
  if (json) log.info(`listening on ${mcpUrl}`);

  await untilStopSignal(say);
  await app.stop();
  await shared?.store.close();
  process.off('unhandledRejection', onUnhandled);
  return 0;
}
