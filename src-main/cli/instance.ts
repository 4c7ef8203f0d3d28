// Reaching the core. A running instance is found through the lock in its state folder
// (core/store/stateLock.ts), whatever port it listens on, and every command talks to it over HTTP
// /control. When the lock is held the CLI never touches the files itself; when nobody holds it, the
// command takes the lock and starts the core headless on the state files for as long as it runs.
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import type { Config } from '../core/config/schema.js';
import type { ControlApi, StatusView } from '../core/control/api.js';
import type { ControlMethod } from '../core/control/contract.js';
import { httpControlClient, httpControlResultJson } from '../core/control/transport/httpClient.js';
import type { InstanceWhere, LaterConfig } from './configLater.js';
import { MwsError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { describeHolder, lockHolder, LOCK_WAIT_MS, type InstanceRecord } from '../core/store/stateLock.js';

/** How long a running instance may take to answer the first call (generous: it may be busy listing upstreams). */
export const INSTANCE_PROBE_MS = 15_000;
const RETRY_MS = 100;

export type ConfigFile = { path: string; raw: Record<string, unknown> };

export type Control = {
  api: ControlApi;
  source: 'running instance' | 'config';
  close: () => Promise<void>;
  instance?: InstanceRecord;
  /** A method's result as JSON (UTF-8 bytes), as a running instance sent it (for `--json` output); absent for the core this command runs itself. */
  resultJson?: (method: ControlMethod, args: unknown) => Promise<Buffer>;
  /** The running instance's status as it answered the connection's first call (`mws status` needs no second one). */
  status?: StatusView;
};

type Reached = { api: ControlApi; resultJson: NonNullable<Control['resultJson']> };

/** A config validated, or one read only as far as finding its instance (configLater.ts). */
export type AnyConfig = Config | LaterConfig;
const isLater = (c: AnyConfig): c is LaterConfig => 'later' in c;
const whereOf = (c: Config): InstanceWhere => ({ stateDir: c.stateDir, upstreams: Object.keys(c.upstreams).length });

function reach(url: string, token: string | (() => Promise<string>)): Reached {
  return { api: httpControlClient(url, token, INSTANCE_PROBE_MS), resultJson: httpControlResultJson(url, token, INSTANCE_PROBE_MS) };
}

/**
 * MWS_REMOTE=URL: every command talks to the instance at URL as the operator `mws login --operator URL`
 * signed in (core/operators/logins.ts), never to a local one.
 */
async function remoteInstance(stateDir: string, env: NodeJS.ProcessEnv = process.env): Promise<Reached | undefined> {
  const raw = env.MWS_REMOTE?.trim();
  if (!raw) return undefined;
  const { instanceUrl, operatorToken } = await import('../core/operators/logins.js');
  const url = instanceUrl(raw);
  return reach(url, await operatorToken(stateDir, url));
}

/** The URL of the config's host and port (what the config asks for; a running instance's real URL is in its lock record). */
export function baseUrl(config: Config): string {
  const host = config.listen.host.includes(':') ? `[${config.listen.host}]` : config.listen.host;
  return `http://${host}:${config.listen.port}`;
}

/**
 * Where a running instance of this config may be: its state folder, and the demo's (`npm run demo`)
 * when the config has no upstream — or for `demoToo` (`mws ui`), since the demo is served whatever
 * the file names. A command about the file's upstreams must not reach the demo, which does not serve them.
 */
export function candidateStateDirs(where: InstanceWhere, demoToo = false): string[] {
  const dirs = [where.stateDir];
  if (demoToo || where.upstreams === 0) dirs.push(join(where.stateDir, 'demo'));
  return dirs;
}

/** Whether an instance listens for one of the config's state folders (without starting anything), or MWS_REMOTE names one. */
export async function isRunning(config: AnyConfig): Promise<boolean> {
  if (process.env.MWS_REMOTE?.trim()) return true;
  const where = isLater(config) ? (config.where ?? whereOf((await config.load()).config)) : whereOf(config);
  for (const dir of candidateStateDirs(where)) if ((await lockHolder(dir))?.record?.url) return true;
  return false;
}

/** The instance reached, and its answer to the first call (none when it refused it). */
async function connect(record: InstanceRecord, stateDir: string): Promise<Reached & { status?: StatusView }> {
  const tokenFile = record.tokenFile ?? join(stateDir, 'control-token');
  let token: string;
  try {
    token = (await readFile(tokenFile, 'utf8')).trim();
  } catch (err) {
    throw new MwsError(
      'instance_unreachable',
      `${describeHolder(record)} holds ${stateDir}, but its control token ${tokenFile} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}). Run mws as the same user as that instance.`,
    );
  }
  const reached = reach(record.url!, token);
  try {
    return { ...reached, status: await reached.api.status({}) };
  } catch (err) {
    // A running instance that refused us (wrong token, bad request) is still the one to talk to; one
    // that does not answer is still the owner of the files, so the CLI must not work on them.
    if (err instanceof MwsError && (err.code as string) !== 'internal') return reached;
    throw new MwsError(
      'instance_unreachable',
      `${describeHolder(record)} holds the state folder ${stateDir} but did not answer (${(err as Error).message}). Nothing was changed; try again, or stop that instance.`,
    );
  }
}

function liveControl(live: Reached & { record: InstanceRecord; status?: StatusView }): Omit<Control, 'close'> {
  return {
    api: live.api,
    resultJson: live.resultJson,
    source: 'running instance',
    instance: live.record,
    ...(live.status ? { status: live.status } : {}),
  };
}

/** The running instance that owns one of the config's state folders, waiting briefly for one that is still starting. */
async function findRunning(
  where: InstanceWhere,
  end: number,
  demoToo = false,
): Promise<(Reached & { record: InstanceRecord; status?: StatusView }) | 'busy' | undefined> {
  let busy = false;
  for (const dir of candidateStateDirs(where, demoToo)) {
    const holder = await lockHolder(dir);
    if (!holder) continue;
    if (holder.record?.url) return { ...(await connect(holder.record, dir)), record: holder.record };
    // Held by something that does not listen (yet): an instance starting, or another command.
    if (dir === where.stateDir) busy = true;
  }
  if (busy && Date.now() < end) return 'busy';
  return undefined;
}

/**
 * `listen`: with no instance running, the core this command starts also opens the listener (mws login
 * needs its /oauth/callback), on the config's port.
 */
export async function openControl(
  given: AnyConfig,
  command = `mws ${process.argv[2] ?? ''}`.trim(),
  opts: { listen?: boolean; file?: ConfigFile; demoToo?: boolean } = {},
): Promise<Control> {
  if (isLater(given)) {
    const vouched = await vouchedInstance(given, opts.demoToo);
    if (vouched) return vouched;
  }
  const config = isLater(given) ? (await given.load()).config : given;
  const remote = await remoteInstance(config.stateDir);
  if (remote) return { ...remote, source: 'running instance', close: async () => {} };
  const end = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    const live = await findRunning(whereOf(config), end, opts.demoToo);
    if (live && live !== 'busy') return { ...liveControl(live), close: async () => {} };
    if (live === 'busy') {
      await new Promise((r) => setTimeout(r, RETRY_MS));
      continue;
    }
    // Nobody runs: this command owns the folder while it works (StateLock waits for a short holder).
    // The core is loaded only here: a command that talks to a running instance never loads it.
    const [{ createApp }, { systemClock }, { silentLogger }] = await Promise.all([
      import('../core/app.js'),
      import('../core/clock.js'),
      import('../core/log.js'),
    ]);
    // On a shared store (team mode) the command works on the fleet's state, which the replicas hear.
    const shared = await openTeamState(config, silentLogger);
    const app = createApp({
      config: shared?.config ?? config,
      clock: systemClock,
      log: silentLogger,
      lock: { command, waitMs: Math.max(0, end - Date.now()) },
      ...(shared ? { stateStore: shared.store } : {}),
      // Edits (an upstream added, a pin) are saved to the file the config came from, as a running instance would.
      ...(opts.file && !shared ? { configFile: { path: opts.file.path, raw: opts.file.raw } } : {}),
    });
    try {
      await app.start({ listen: opts.listen === true, schedule: false });
    } catch (err) {
      await app.stop();
      await shared?.store.close();
      // An instance started between the look and the lock: talk to it instead.
      if (err instanceof MwsError && err.code === 'state_locked' && (err.data.holder as InstanceRecord | null)?.url && Date.now() < end)
        continue;
      throw err;
    }
    return {
      api: app.control,
      source: 'config',
      close: async () => {
        await app.stop();
        await shared?.store.close();
      },
    };
  }
}

/**
 * The running instance of a config not validated yet, when it vouches for the file: its settings in
 * force came from exactly this text (status: configInForce), so the file is valid and the command needs
 * no more of it. Anything else (no instance, one starting or not answering, another text, an older
 * instance that does not say, MWS_REMOTE) goes the whole config's way, which says what is wrong with
 * the file first, as it always did; an instance not vouching is then asked its status a second time.
 */
async function vouchedInstance(later: LaterConfig, demoToo = false): Promise<Control | undefined> {
  if (!later.where || later.version === undefined || process.env.MWS_REMOTE?.trim()) return undefined;
  const live = await findRunning(later.where, 0, demoToo).catch(() => undefined);
  if (!live || live === 'busy' || live.status?.configInForce !== later.version) return undefined;
  return { ...liveControl(live), close: async () => {} };
}

/** The shared store and the config it holds, when this config names one (statestore/open.ts); never seeds it. */
async function openTeamState(config: Config, log: Logger) {
  const { databaseUrl, openSharedState } = await import('../core/statestore/open.js');
  if (!databaseUrl(config, process.env)) return undefined;
  const { validateConfig } = await import('../core/config/validate.js');
  const local = { listen: config.listen, stateDir: config.stateDir, ...(config.store ? { store: config.store } : {}) };
  const shared = await openSharedState({ config, fileRaw: local, env: process.env, log, seed: false });
  if (!shared) return undefined;
  return { store: shared.store, config: validateConfig(shared.raw, config.stateDir) };
}

/**
 * The running instance's ControlApi, or undefined when none runs — without starting the core (for
 * commands that work on a file or two of the state folder and need no upstream connected).
 */
export async function runningInstance(config: Config): Promise<ControlApi | undefined> {
  const remote = await remoteInstance(config.stateDir);
  if (remote) return remote.api;
  const end = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    const live = await findRunning(whereOf(config), end);
    if (live !== 'busy') return live?.api;
    await new Promise((r) => setTimeout(r, RETRY_MS));
  }
}

/** `file`: the config file that edits made through the core started here are saved to (none: not editable). */
export async function withControl<T>(
  config: AnyConfig,
  fn: (c: Control) => Promise<T>,
  file?: ConfigFile,
  opts: { demoToo?: boolean } = {},
): Promise<T> {
  const c = await openControl(config, undefined, { ...(file ? { file } : {}), ...opts });
  try {
    return await fn(c);
  } finally {
    await c.close();
  }
}
