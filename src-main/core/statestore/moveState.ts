// Moving a state folder and its config into an empty PostgreSQL store (`mws migrate-state`): every
// record goes through the two adapters of the state port, except the append-only logs, which are read
// here line by line (the port answers them back only in part). The config is claimed first, so a second
// run into the same database is refused before it could copy anything twice.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MwsError } from '../errors.js';
import { OAUTH_FILE } from '../upstream/oauth/store.js';
import { CALL_LOG_FILE, type CallRecord, type SearchRecord } from '../usage/callLog.js';
import { CALL_LOG_ROTATED_FILE } from '../usage/activity.js';
import type { StoredHistoryEntry } from '../workingset/types.js';
import type { Raw, StateStore } from './port.js';
import { splitConfig } from './open.js';
import { isLearnedPair } from '../search/learningFeed.js';
import { LEARNED_FILE } from '../search/learning.js';

export type MoveReport = {
  agents: number;
  history: number;
  calls: number;
  searches: number;
  secrets: number;
  signIns: number;
  /** Pairs search learned (learned.json), into the fleet's learning feed. */
  learned: number;
  /** Lines of the logs that did not parse (a torn last line): said, not copied. */
  skippedLines: number;
};

async function lines(path: string): Promise<string[]> {
  const text = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? '' : Promise.reject(err)));
  return text.split('\n').filter((l) => l.trim() !== '');
}

function parsed(line: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(line) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The agents the folder holds anything of, and the configured ones. */
async function agentIds(stateDir: string, configured: string[]): Promise<string[]> {
  const names = await readdir(join(stateDir, 'agents')).catch(() => [] as string[]);
  const found = names.map((n) => /^(.+?)(?:\.history\.jsonl|\.json)$/.exec(n)?.[1]).filter((x): x is string => x !== undefined);
  return [...new Set([...configured, ...found])].sort();
}

export async function moveState(o: {
  from: StateStore;
  to: StateStore;
  stateDir: string;
  /** The config file's JSON: its shared part becomes the database's config. */
  configRaw: Raw;
  agents: string[];
  /** The configured upstreams' names (vendors): their sign-ins move. */
  vendors: string[];
}): Promise<MoveReport> {
  const existing = await o.to.config.read();
  if (existing) {
    throw new MwsError(
      'conflict',
      `${o.to.config.label} already holds a Working Set config (version ${existing.version}), and state is moved only into an empty database, so nothing was copied. Use a new database (or drop its mws_* tables) and run this again.`,
    );
  }
  await o.to.config.write(splitConfig(o.configRaw).shared, null);
  const report: MoveReport = { agents: 0, history: 0, calls: 0, searches: 0, secrets: 0, signIns: 0, learned: 0, skippedLines: 0 };

  const historyOf = new Map<string, number>();
  for (const id of await agentIds(o.stateDir, o.agents)) {
    await o.to.agents.save(id, await o.from.agents.load(id));
    report.agents++;
    historyOf.set(id, 0);
    for (const line of await lines(join(o.stateDir, 'agents', `${id}.history.jsonl`))) {
      const e = parsed(line) as StoredHistoryEntry | undefined;
      if (!e || typeof e.tool !== 'string' || typeof e.ts !== 'string') {
        report.skippedLines++;
        continue;
      }
      o.to.agents.appendHistory(id, [
        {
          ts: e.ts,
          tool: e.tool,
          action: e.action,
          cause: e.cause,
          ...(e.by ? { by: e.by } : {}),
          ...(e.vendor ? { vendor: e.vendor } : {}),
        },
      ]);
      historyOf.set(id, historyOf.get(id)! + 1);
      report.history++;
    }
  }

  // The rotated file holds the older calls: it goes first, so the order stays.
  for (const file of [CALL_LOG_ROTATED_FILE, CALL_LOG_FILE]) {
    for (const line of await lines(join(o.stateDir, file))) {
      const r = parsed(line);
      if (!r || typeof r.agent !== 'string' || typeof r.ts !== 'string') {
        report.skippedLines++;
        continue;
      }
      if (r.event === 'search') {
        o.to.calls.search(r as SearchRecord);
        report.searches++;
      } else {
        o.to.calls.call(r as CallRecord);
        report.calls++;
      }
    }
  }
  await o.to.calls.flush();

  // What search learned, per agent, oldest first: each pair an event of the fleet's feed.
  if (o.to.learning) {
    const learned = parsed(await readFile(join(o.stateDir, LEARNED_FILE), 'utf8').catch(() => '{}'))?.agents;
    for (const [agent, list] of Object.entries(typeof learned === 'object' && learned !== null ? learned : {})) {
      for (const pair of Array.isArray(list) ? (list as unknown[]) : []) {
        if (!isLearnedPair(pair)) continue;
        o.to.learning.append({ agent, pair });
        report.learned++;
      }
    }
    await o.to.learning.flush();
  }

  for (const name of await o.from.secrets.list()) {
    const value = await o.from.secrets.get(name);
    if (value === undefined) continue;
    await o.to.secrets.set(name, value);
    report.secrets++;
  }

  // Sign-ins of configured upstreams, and of any other the file still holds.
  const inFile = Object.keys((parsed(await readFile(join(o.stateDir, OAUTH_FILE), 'utf8').catch(() => '{}')) ?? {}).upstreams ?? {});
  for (const vendor of [...new Set([...o.vendors, ...inFile])].sort()) {
    const rec = await o.from.oauth.get(vendor);
    if (!rec) continue;
    await o.to.oauth.set(vendor, rec);
    report.signIns++;
  }
  // The history lines are written behind the saves: read each agent's back, so none is left behind unsaid.
  for (const [id, n] of historyOf) {
    const got = (await o.to.agents.readHistory(id)).length;
    if (got !== n)
      throw new MwsError(
        'state_unwritable',
        `Only ${got} of the ${n} history lines of agent "${id}" reached ${o.to.config.label}; run this again into a new database.`,
      );
  }
  return report;
}
