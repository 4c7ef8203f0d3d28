// `mws migrate-state --to postgres://…`: moves this config's state folder (working sets, history, grants,
// the call log, secrets, sign-ins) and its upstreams, agents and settings into an empty PostgreSQL
// database, for replicas to share (docs/guide/team.md). The folder is left as it was.
import { loadConfig } from '../../core/config/load.js';
import { resolveConfigPath } from '../../core/config/paths.js';
import { MwsError } from '../../core/errors.js';
import { stderrLogger } from '../../core/log.js';
import { StateLock } from '../../core/store/stateLock.js';
import { filesStateStore } from '../../core/statestore/files.js';
import { moveState } from '../../core/statestore/moveState.js';
import { describeUrl, openPostgresStore } from '../../core/statestore/postgres/store.js';
import { loadSealingKey } from '../../core/statestore/seal.js';
import type { Io } from '../output.js';

export async function runMigrateState(io: Io, o: { config: string | undefined; to: string | undefined }): Promise<number> {
  if (!o.to || !/^postgres(?:ql)?:\/\//i.test(o.to))
    throw new MwsError('usage', 'mws migrate-state needs --to postgres://USER:PASSWORD@HOST:PORT/DATABASE (an empty database).');
  const loaded = await loadConfig(resolveConfigPath(o.config));
  const { config } = loaded;
  // Nothing else may write the folder meanwhile: a running instance holds this lock, and is named.
  const lock = await StateLock.acquire(config.stateDir, { command: 'mws migrate-state' }, stderrLogger);
  const from = filesStateStore({ stateDir: config.stateDir, configPath: loaded.path, log: stderrLogger, now: Date.now });
  const keyFile = config.store?.postgres?.keyFile;
  try {
    const to = await openPostgresStore({ url: o.to, log: stderrLogger, key: () => loadSealingKey(process.env, keyFile) });
    try {
      const r = await moveState({
        from,
        to,
        stateDir: config.stateDir,
        configRaw: loaded.raw,
        agents: config.agents.map((a) => a.id),
        vendors: Object.keys(config.upstreams),
      });
      io.out(
        [
          `Moved ${config.stateDir} and ${loaded.path} into PostgreSQL at ${describeUrl(o.to)}:`,
          `  config (upstreams, agents, settings), ${r.agents} working set${r.agents === 1 ? '' : 's'}, ${r.history} history line${r.history === 1 ? '' : 's'},`,
          `  ${r.calls} call record${r.calls === 1 ? '' : 's'}, ${r.searches} search record${r.searches === 1 ? '' : 's'}, ${r.secrets} secret${r.secrets === 1 ? '' : 's'}, ${r.signIns} sign-in${r.signIns === 1 ? '' : 's'}, ${r.learned} learned search pair${r.learned === 1 ? '' : 's'}.`,
          ...(r.skippedLines ? [`  ${r.skippedLines} damaged log line${r.skippedLines === 1 ? ' was' : 's were'} left out.`] : []),
          `Next: give each replica "store": {"postgres": {"url": …}} and the same sealing key (docs/guide/team.md). The state folder is unchanged.`,
        ].join('\n'),
      );
      return 0;
    } finally {
      await to.close();
    }
  } finally {
    await from.close();
    await lock.release();
  }
}
