// `mws activity`: the latest calls (agent, tool, upstream, duration, ok, error or refused, and why), newest first, from
// the activity log in the state folder. Read-only: with no instance running, the files are read as they are.
import { cliConfig, type ConfigFlags } from '../config.js';
import { isRunning, withControl } from '../instance.js';
import { recentCalls, type ActivityEntry } from '../../core/usage/activity.js';
import { table } from '../table.js';
import type { Io } from '../output.js';
import { callOutcome } from '../../shared/activityWords.js';

export async function runActivity(
  io: Io,
  f: ConfigFlags & { agent: string | undefined; json: boolean; limit: number | undefined },
): Promise<number> {
  const { config } = await cliConfig(f);
  const args = { ...(f.agent ? { agent: f.agent } : {}), ...(f.limit ? { limit: f.limit } : {}) };
  // A running instance answers for its own folder (the demo's included), and the fleet's shared log is
  // read through the core (team mode); else the files are read.
  const { databaseUrl } = await import('../../core/statestore/open.js');
  const viaCore = databaseUrl(config, process.env) !== undefined || (await isRunning(config));
  const calls: ActivityEntry[] = viaCore ? await withControl(config, ({ api }) => api.activity(args)) : recentCalls(config.stateDir, args);
  if (f.json) {
    io.out(JSON.stringify(calls));
    return 0;
  }
  if (!calls.length) {
    io.out(`No calls recorded yet${f.agent ? ` for agent "${f.agent}"` : ''}.`);
    return 0;
  }
  io.out(
    table(
      ['time', 'agent', 'tool', 'upstream', 'ms', 'result', 'reason'],
      calls.map((c) => [
        c.ts.replace('T', ' ').slice(0, 19),
        c.agent,
        c.tool,
        c.upstream,
        Math.round(c.ms),
        callOutcome(c),
        c.ok ? '' : (c.reason ?? 'no reason was recorded (a call from before reasons were kept)'),
      ]),
    ),
  );
  return 0;
}
