// A WorkingSets over real files in a temp dir, a hand-moved clock and a fixed toolbox.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { validateConfig } from '../../src-main/core/config/validate.js';
import { ManualClock } from '../../src-main/core/clock.js';
import { MemoryLogger } from '../../src-main/core/log.js';
import { Toolbox } from '../../src-main/core/toolbox/toolbox.js';
import { UsageStore } from '../../src-main/core/usage/usageStore.js';
import { AgentStateFiles } from '../../src-main/core/workingset/stateFiles.js';
import { SeedWorkingSetFile } from '../../src-main/core/workingset/seedFile.js';
import { WorkingSets } from '../../src-main/core/workingset/manager.js';
import { CallLog } from '../../src-main/core/usage/callLog.js';
import { ApprovalGrants } from '../../src-main/core/approvals/grants.js';
import type { DemoteCause } from '../../src-main/core/workingset/types.js';

export const T0 = Date.parse('2026-03-01T09:00:00Z');
export const DAY = 24 * 3600 * 1000;

export function tool(name: string, readOnly = true): Tool {
  return { name, description: `${name} does things`, inputSchema: { type: 'object' }, annotations: { readOnlyHint: readOnly } };
}

export type SetsHarness = Awaited<ReturnType<typeof setsHarness>>;

export async function setsHarness(
  raw: Record<string, unknown> = {},
  tools: Tool[] = ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => tool(n)),
  stateDir = mkdtempSync(join(tmpdir(), 'mws-sets-')),
  /** When this instance starts (a restart over the same stateDir starts later). */
  startAt = T0,
) {
  const config = validateConfig({ stateDir, upstreams: { v: { url: 'http://127.0.0.1:1/mcp' } }, ...raw }, stateDir);
  const clock = new ManualClock(startAt);
  const log = new MemoryLogger();
  let toolbox = new Toolbox(new Map([['v', tools]]), false);
  const busy = new Set<string>();
  /** When each agent last sent a request, as the router notes it (the scheduled cycle waits for quiet). */
  const lastSeen = new Map<string, number>();
  const changed: string[][] = [];
  const demoted: Array<{ agent: string; tools: string[]; cause: DemoteCause }> = [];
  const usage = new UsageStore(stateDir, log);
  const files = new AgentStateFiles(stateDir, log);
  const sets = new WorkingSets({
    config,
    clock,
    log,
    files,
    usage,
    seed: new SeedWorkingSetFile(stateDir, log),
    toolbox: () => toolbox,
    busy: (a) => busy.has(a),
    lastActive: (a) => lastSeen.get(a),
    events: { changed: (a) => changed.push(a), demoted: (agent, t, cause) => demoted.push({ agent, tools: t, cause }) },
  });
  await sets.start();
  const grants = new ApprovalGrants({ records: (a) => sets.states.state(a).approvals, save: (a) => sets.states.save(a) }, () =>
    clock.now(),
  );
  const callLog = new CallLog(stateDir);
  /** Writes a call to calls.jsonl as the proxy would, at the clock's time (or `at`). */
  const call = async (
    agentTool: string,
    o: { agent?: string; ok?: boolean; session?: string | null; client?: string; at?: number } = {},
  ) => {
    callLog.call({
      ts: new Date(o.at ?? clock.now()).toISOString(),
      agent: o.agent ?? 'default',
      tool: agentTool,
      via: 'direct',
      ok: o.ok ?? true,
      ms: 1,
      client: o.client ?? 'test',
      session: o.session === undefined ? 'sess-1' : o.session,
    });
    await callLog.flush();
  };
  return {
    config,
    clock,
    log,
    sets,
    grants,
    usage,
    files,
    busy,
    lastSeen,
    changed,
    callLog,
    demoted,
    stateDir,
    call,
    setTools: (t: Tool[]) => (toolbox = new Toolbox(new Map([['v', t]]), false)),
    listed: (agent = 'default') => [...sets.names(agent)],
    close: async () => {
      await callLog.close();
      await files.close();
    },
  };
}
