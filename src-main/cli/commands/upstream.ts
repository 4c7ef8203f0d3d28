// `mws upstream <sub> NAME`: run the upstreams: turn one off or on (kept in the config), restart it,
// read its log. Subcommands come from one table, so adding one is one entry.
import { ConfigEditor } from '../../core/config/editor.js';
import { MwsError } from '../../core/errors.js';
import { setEnabledIn } from '../../core/control/upstreamOps.js';
import type { LoadedConfig } from '../../core/config/load.js';
import { cliConfig, type ConfigFlags } from '../config.js';
import { isRunning, withControl, type Control } from '../instance.js';
import type { Io } from '../output.js';
import { printable } from '../../core/printable.js';
import { upstreamFailure } from '../../shared/errorWords.js';
import { statusPhrase, statusWord } from '../../shared/statusWords.js';
import { plural, table } from '../table.js';
import { nextStep } from '../daily/nextStep.js';
import { editedUpstream, newUpstream, type UpstreamFlags as InputFlags } from '../daily/upstreamInput.js';
import { followLog, logLine } from '../daily/followLog.js';
import { systemClock } from '../../core/clock.js';
import type { UpstreamRow } from '../../core/control/api.js';

export type UpstreamFlags = ConfigFlags & {
  json: boolean;
  lines: number | undefined;
  rest: string[];
  follow?: boolean;
  /** add/edit: the flags that make the upstream (the words after `--` are its command). */
  input?: InputFlags;
};

type Sub = {
  usage: string;
  /** `c`: the running instance, or the core started on the files; undefined for edits made to the file alone. */
  run: (io: Io, name: string, f: UpstreamFlags, loaded: LoadedConfig, c: Control | undefined) => Promise<number>;
};

const need = (c: Control | undefined, what: string): Control => {
  if (c?.source !== 'running instance')
    throw new MwsError('usage', `No instance is running, so there is ${what}; start one with \`mws serve\` (or open the app).`);
  return c;
};

async function setEnabled(
  io: Io,
  name: string,
  enabled: boolean,
  f: UpstreamFlags,
  loaded: LoadedConfig,
  c: Control | undefined,
): Promise<number> {
  if (c?.source === 'running instance') {
    const rows = await c.api.setUpstreamEnabled({ vendor: name, enabled });
    const row = rows.find((r) => r.vendor === name);
    if (f.json) io.out(JSON.stringify(row ?? null));
    else
      io.out(
        enabled
          ? `Turned "${name}" on; it ${row ? statusPhrase(row) : 'is starting'}.`
          : `Turned "${name}" off: it is stopped and its tools are out of every list and search. \`mws upstream enable ${name}\` turns it back on.`,
      );
    return 0;
  }
  if (!Object.hasOwn(loaded.config.upstreams, name)) throw new MwsError('not_found', `No upstream "${name}" in ${loaded.path}.`);
  const editor = new ConfigEditor(loaded.path, loaded.raw, loaded.config.stateDir, async () => {});
  await editor.update((raw) => setEnabledIn(raw, name, enabled));
  if (f.json) io.out(JSON.stringify({ vendor: name, enabled }));
  else io.out(`${enabled ? 'Turned on' : 'Turned off'} "${name}" in ${loaded.path}; it takes effect when Working Set starts.`);
  return 0;
}

export const UPSTREAM_SUBCOMMANDS: Record<string, Sub> = {
  enable: { usage: 'mws upstream enable NAME     turn it back on', run: (io, n, f, l, c) => setEnabled(io, n, true, f, l, c) },
  disable: {
    usage: 'mws upstream disable NAME    turn it off without removing it (its tools leave every list and search)',
    run: (io, n, f, l, c) => setEnabled(io, n, false, f, l, c),
  },
  restart: {
    usage: 'mws upstream restart NAME    restart its process (stdio) or reconnect (HTTP)',
    run: async (io, name, f, _l, c) => {
      const rows = await need(c, 'nothing to restart').api.restartUpstream({ vendor: name });
      const row = rows.find((r) => r.vendor === name);
      // A failure in the window's words (shared/errorWords.ts), as `mws report` says it.
      const target =
        row && 'url' in row.config ? { url: row.config.url } : row && 'command' in row.config ? { command: row.config.command } : {};
      io.out(
        f.json
          ? JSON.stringify(row ?? null)
          : printable(
              `Restarted "${name}": it ${row ? statusPhrase(row) : 'is starting'}${row?.status === 'up' ? ` with ${plural(row.toolCount, 'tool')}` : row?.lastError ? `: ${upstreamFailure(row.lastError, target).replace(/\.$/, '')}` : ''}.`,
            ),
      );
      return 0;
    },
  },
  log: {
    usage: 'mws upstream log NAME [--lines N]   its last stderr lines and connection events',
    run: async (io, name, f, _l, c) => {
      const v = await need(c, 'no log to show (the log is kept by the running instance)').api.upstreamLog({
        vendor: name,
        ...(f.lines ? { lines: f.lines } : {}),
      });
      if (f.json) {
        io.out(JSON.stringify(v));
        return 0;
      }
      io.out(`Upstream "${name}": ${statusWord(v)}.`);
      if (!f.follow) {
        if (!v.lines.length) io.out('Nothing logged yet.');
        for (const l of v.lines) io.out(logLine(l));
        return 0;
      }
      io.out('Following its log (Ctrl-C stops).');
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      try {
        await followLog(c!.api, name, (l) => io.out(f.json ? JSON.stringify(l) : logLine(l)), systemClock, stop.signal);
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
      return 0;
    },
  },
  edit: {
    usage: 'mws upstream edit NAME [--url URL | -- COMMAND ARGS…] [--header K=V] [--env K=V]   change what is named (K= removes K)',
    run: async (io, name, f, _l, c) => {
      // With no instance running, the core started on the files for this command saves it the same way.
      const api = c!.api;
      const saved = (await api.upstreams({})).find((r) => r.vendor === name);
      if (!saved) throw new MwsError('not_found', `No upstream "${name}" in the config.`);
      const rows = await api.saveUpstream({ vendor: name, upstream: editedUpstream(saved.config, f.input!), replace: true });
      return saved_(io, name, rows, f, 'Saved the change to');
    },
  },
  remove: {
    usage: "mws upstream remove NAME   take it out of the config (its tools leave every agent's list)",
    run: async (io, name, f, _l, c) => {
      await c!.api.removeUpstream({ vendor: name });
      io.out(
        f.json
          ? JSON.stringify({ removed: name })
          : `Removed "${name}": its tools are out of every list and search, and its secrets are forgotten. A backup of the config is kept next to it.`,
      );
      return 0;
    },
  },
};

/** The answer to an add or an edit: the upstream's status right after it was saved (it connects in the background). */
function saved_(io: Io, name: string, rows: UpstreamRow[], f: UpstreamFlags, what: string): number {
  const row = rows.find((r) => r.vendor === name);
  if (f.json) io.out(JSON.stringify(row ?? null));
  else {
    const step = row && nextStep(row);
    io.out(
      printable(
        `${what} "${name}": it ${row ? statusPhrase(row) : 'is starting'}${row?.status === 'up' ? ` with ${plural(row.toolCount, 'tool')}` : ''}.${step && row?.status !== 'starting' ? ` Next: ${step}.` : ''} \`mws upstream list\` shows how it is doing.`,
      ),
    );
  }
  return 0;
}

/** `mws upstream list`: every upstream, its status, tools and what to do next. */
async function listUpstreams(io: Io, f: UpstreamFlags): Promise<number> {
  const loaded = await cliConfig(f);
  return withControl(loaded.config, async ({ api }) => {
    const rows = await api.upstreams({});
    if (f.json) {
      io.out(JSON.stringify(rows.map((r) => ({ ...r, action: nextStep(r) ?? null }))));
      return 0;
    }
    if (!rows.length) {
      io.out(
        'No upstreams yet: `mws upstream add NAME --url URL` (or `-- COMMAND ARGS…`), or `mws import` to move in the servers your clients use.',
      );
      return 0;
    }
    io.out(
      table(
        ['upstream', 'kind', 'status', 'tools', 'next step'],
        rows.map((r) => [
          r.vendor,
          r.kind,
          statusWord(r),
          r.status === 'up' || r.source === 'file' ? r.toolCount : null,
          nextStep(r) ?? null,
        ]),
      ),
    );
    return 0;
  });
}

/** `mws upstream add NAME (--url URL | -- COMMAND ARGS…)`. */
async function addUpstream(io: Io, name: string, f: UpstreamFlags): Promise<number> {
  const upstream = newUpstream(f.input!);
  const loaded = await cliConfig(f);
  return withControl(
    loaded.config,
    async ({ api }) => {
      const rows = await api.saveUpstream({ vendor: name, upstream });
      return saved_(io, name, rows, f, 'Added');
    },
    loaded,
  );
}

export async function runUpstream(io: Io, f: UpstreamFlags): Promise<number> {
  const [sub, name, ...extra] = f.rest;
  if (sub === 'list') {
    if (name !== undefined) throw new MwsError('usage', `mws upstream list takes no name (got "${name}").`);
    return listUpstreams(io, f);
  }
  if (sub === 'add') {
    if (!name)
      throw new MwsError('usage', 'Name the upstream: `mws upstream add NAME --url URL` or `mws upstream add NAME -- COMMAND ARGS…`.');
    if (extra.length) throw new MwsError('usage', `Put the command after \`--\`: \`mws upstream add ${name} -- ${extra.join(' ')}\`.`);
    return addUpstream(io, name, f);
  }
  const names = Object.keys(UPSTREAM_SUBCOMMANDS);
  const spec = sub !== undefined && Object.hasOwn(UPSTREAM_SUBCOMMANDS, sub) ? UPSTREAM_SUBCOMMANDS[sub]! : undefined;
  if (!spec)
    throw new MwsError(
      'usage',
      `${sub ? `mws upstream has no "${sub}"` : 'mws upstream needs what to do'}: one of ${['list', 'add', 'edit', 'remove', ...names.filter((n) => n !== 'edit' && n !== 'remove'), 'set'].join(', ')}, then the upstream's name (e.g. \`mws upstream log github\`).`,
    );
  if (!name) throw new MwsError('usage', `Name the upstream: \`${spec.usage.split(/\s{2,}/)[0]}\`.`);
  if (extra.length)
    throw new MwsError(
      'usage',
      `mws upstream ${sub} takes one name (also got ${extra.map((e) => `"${e}"`).join(' ')})${sub === 'edit' ? '; put a new command after `--`' : ''}.`,
    );
  const loaded = await cliConfig(f);
  if (!Object.hasOwn(loaded.config.upstreams, name)) {
    const known = Object.keys(loaded.config.upstreams);
    throw new MwsError(
      'not_found',
      `No upstream "${name}" in ${loaded.path}.${known.length ? ` The upstreams are: ${known.join(', ')}.` : ' There are none yet.'}`,
    );
  }
  // Turning one off or on needs no instance: without one, the file is edited and nothing is started;
  // restart and log need one, and say so without starting every upstream first; edit and remove start
  // the core on the files (its secrets are moved and forgotten as a running instance would).
  if (sub !== 'edit' && sub !== 'remove' && !(await isRunning(loaded.config))) return spec.run(io, name, f, loaded, undefined);
  return withControl(loaded.config, (c) => spec.run(io, name, f, loaded, c), loaded);
}
