// `mws upstream set NAME KEY [VALUE|--stdin]` and `mws secrets [list|migrate]`: values an upstream
// needs and secrets kept outside config.json. A value is read without echo from a terminal, or from
// stdin; on the command line only when its name does not look like a secret (argv shows in `ps` and
// in shell history). Through the running instance when there is one, else on the files directly.
import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ConfigEditor } from '../../core/config/editor.js';
import { planConfigMoves } from '../../core/secrets/move.js';
import type { LoadedConfig } from '../../core/config/load.js';
import { MwsError } from '../../core/errors.js';
import { isSecretName } from '../../core/redact.js';
import { FileSecretStore } from '../../core/secrets/store.js';
import { secretsControl } from '../../core/control/secretsControl.js';
import { controlClient } from '../../core/control/envelope.js';
import { silentLogger, stderrLogger } from '../../core/log.js';
import { StateLock } from '../../core/store/stateLock.js';
import type { ControlApi } from '../../core/control/api.js';
import { statusPhrase } from '../../shared/statusWords.js';
import { cliConfig } from '../config.js';
import { runningInstance } from '../instance.js';
import type { Io } from '../output.js';

/** The largest value read from stdin: a token or a key, not a file. */
const MAX_VALUE_BYTES = 64 * 1024;

type ValueSource = { value?: string | undefined; stdin: boolean };

/** Everything on stdin, without the one line end a shell or `echo` adds. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_VALUE_BYTES)
      throw new MwsError('usage', `The value on stdin is longer than ${MAX_VALUE_BYTES} bytes; a value is a token or a key, not a file.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** Asks on the terminal with echo off (raw mode); Ctrl-C cancels. */
function askHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  // Echo goes off before the question shows: what is typed (or pasted) right after it is never shown.
  stdin.setRawMode(true);
  process.stderr.write(question);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = () => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return (finish(), resolve(value));
        if (ch === '\u0003') return (finish(), reject(new MwsError('usage', 'Cancelled; nothing was saved.')));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

async function readValue(vendor: string, key: string, src: ValueSource): Promise<string> {
  if (src.value !== undefined) {
    if (src.stdin) throw new MwsError('usage', 'Give the value on the command line or with --stdin, not both.');
    if (isSecretName(key)) {
      throw new MwsError(
        'usage',
        `"${key}" looks like a secret, and a value on the command line shows in \`ps\` and in your shell history. Run \`mws upstream set ${vendor} ${key}\` to be asked for it, or pipe it in with --stdin.`,
      );
    }
    return src.value;
  }
  const value =
    src.stdin || !process.stdin.isTTY ? await readStdin() : await askHidden(`Value of ${key} for upstream "${vendor}" (not shown): `);
  if (!value) throw new MwsError('usage', 'The value is empty; nothing was saved.');
  return value;
}

type Values = Pick<ControlApi, 'setUpstreamValue' | 'secretNames' | 'migrateSecrets'>;

/**
 * Runs `fn` on the running instance's ControlApi, else on the files: the config and the secret store,
 * under the state folder's lock, with no upstream connected (nothing here needs one).
 */
async function withValues<T>(loaded: LoadedConfig, command: string, fn: (m: Values, running: boolean) => Promise<T>): Promise<T> {
  const api = await runningInstance(loaded.config);
  if (api) return fn(api, true);
  const lock = await StateLock.acquire(loaded.config.stateDir, { command }, silentLogger);
  try {
    const editor = new ConfigEditor(loaded.exists ? loaded.path : undefined, loaded.raw, loaded.config.stateDir, async () => {});
    // Checked against the same schemas as a running instance's /control: the files get only what it would take.
    return await fn(
      controlClient(
        secretsControl({
          config: loaded.config,
          editor,
          catalog: { reconnect: async () => {}, statuses: () => [] },
          secrets: new FileSecretStore(loaded.config.stateDir, stderrLogger),
        }),
      ),
      false,
    );
  } finally {
    await lock.release();
  }
}

export async function runUpstreamSet(
  io: Io,
  f: { config: string | undefined; vendor: string | undefined; key: string | undefined } & ValueSource,
): Promise<number> {
  const { vendor, key } = f;
  if (!vendor || !key)
    throw new MwsError(
      'usage',
      'Usage: `mws upstream set NAME KEY` (asked without echo), `… KEY --stdin` (piped), or `… KEY VALUE` for a value that is not a secret.',
    );
  const loaded = await cliConfig({ config: f.config });
  if (!Object.hasOwn(loaded.config.upstreams, vendor)) {
    throw new MwsError(
      'not_found',
      `No upstream "${vendor}" in ${loaded.path}; the configured ones are ${Object.keys(loaded.config.upstreams).join(', ') || 'none'}.`,
    );
  }
  const value = await readValue(vendor, key, f);
  const r = await withValues(loaded, 'mws upstream set', async (m, running) => ({
    ...(await m.setUpstreamValue({ vendor, key, value })),
    running,
  }));
  io.out(`Saved ${key} for upstream "${vendor}" in the secret store (${r.secret}); config.json holds no value.`);
  if (!r.running) io.out('No instance is running: it is used when Working Set starts.');
  else
    io.out(
      `Upstream "${vendor}" ${statusPhrase(r)}${r.status !== 'up' && r.lastError && r.status !== 'needs-value' ? `: ${r.lastError}` : ''}.`,
    );
  return 0;
}

/**
 * The backups of config.json (`mws import` makes them) that still hold plain-text secret values: moving
 * the values out of config.json leaves those copies, which the user should know to delete.
 */
export async function backupsWithSecrets(configPath: string): Promise<string[]> {
  const dir = dirname(configPath);
  const prefix = `${basename(configPath)}.`;
  const out: string[] = [];
  for (const f of (await readdir(dir).catch(() => [] as string[])).sort()) {
    if (!f.startsWith(prefix) || !f.endsWith('.bak')) continue;
    try {
      const raw = JSON.parse(await readFile(join(dir, f), 'utf8')) as unknown;
      if (typeof raw === 'object' && raw !== null && planConfigMoves(raw as Record<string, unknown>).length) out.push(join(dir, f));
    } catch {
      // not JSON: not a backup of ours
    }
  }
  return out;
}

export async function runSecrets(io: Io, f: { config: string | undefined; action: string | undefined; json: boolean }): Promise<number> {
  const action = f.action ?? 'list';
  if (action !== 'list' && action !== 'migrate') throw new MwsError('usage', `mws secrets takes "list" or "migrate" (got "${action}").`);
  const loaded = await cliConfig({ config: f.config });
  return withValues(loaded, `mws secrets ${action}`, async (m) => {
    if (action === 'list') {
      const { names } = await m.secretNames({});
      if (f.json) io.out(JSON.stringify({ names }, null, 2));
      else
        io.out(
          names.length ? `The secret store holds (names only):\n${names.map((n) => `  ${n}`).join('\n')}` : 'The secret store is empty.',
        );
      return 0;
    }
    const { moved } = await m.migrateSecrets({});
    const backups = loaded.exists ? await backupsWithSecrets(loaded.path) : [];
    if (f.json) io.out(JSON.stringify({ moved, backupsWithSecrets: backups }, null, 2));
    else {
      io.out(
        moved.length
          ? `Moved ${moved.length} secret value(s) out of ${loaded.path} into the secret store; the file now names them as \${secret:…}:\n${moved.map((n) => `  ${n}`).join('\n')}`
          : `${loaded.path} holds no plain-text secret header or env values.`,
      );
      if (backups.length)
        io.out(
          `These backups of it still hold plain-text secret values; delete them once you no longer need them:\n${backups.map((b) => `  ${b}`).join('\n')}`,
        );
    }
    return 0;
  });
}
