// The report: what each agent lists and what that costs in context, against listing everything.
// Token counts use a real tokenizer (gpt-tokenizer, o200k_base, in a worker: tokenizer.ts), not bytes/4.
import type { Tool } from '@modelcontextprotocol/client';
import type { HistoryEntry } from '../../workingset/types.js';
import type { AgentReport, MemberRow } from '../api.js';
import type { Tally } from '../../usage/usageStore.js';
import { definitionKey, type Cost, type TokenCountFile } from './tokenCounts.js';
import { countTokensOf, tokenizerProcessesStarted } from './tokenizer.js';
import { byCodeUnit } from '../../../shared/codeUnitOrder.js';

let tokenized = 0;

/** For tests: whether this process started the tokenizer, and how many definitions it tokenized. */
export function tokenizerStats(): { loaded: boolean; tokenized: number } {
  return { loaded: tokenizerProcessesStarted() > 0, tokenized };
}

/**
 * Per listed tool object (listings reuse one object per unchanged tool definition, Toolbox.listed):
 * a report tokenizes only tools it has not seen, never the whole listing again.
 */
/**
 * Per tool object, its cost and the key of its definition. The key goes with it so that a file that
 * lacks a cost counted in this process (another core in the same process counted the same objects:
 * the built-in demo's tools are shared) still receives it, and a restart finds it there.
 */
const toolCosts = new WeakMap<Tool, Cost & { key: string }>();

/**
 * What a tools/list of `tools` costs: the sum of each tool's JSON, plus the brackets and commas. In
 * o200k_base the comma between two tools merges with the next tool's opening `{"`, so this equals
 * tokenizing the whole array (checked in test/unit/control/reportCost.test.ts). With `file`, a definition
 * counted before (in this process or an earlier one) is not tokenized again, and the tokenizer is
 * loaded only when some definition is new.
 */
export async function listingCost(tools: Tool[], file?: TokenCountFile): Promise<Cost> {
  if (tools.length === 0) return { bytes: 2, tokens: (await countTokensOf(['[]']))[0]! };
  await file?.load();
  let bytes = 2 + tools.length - 1;
  let tokens = 2;
  const missing: Array<{ tool: Tool; text: string; key: string }> = [];
  for (const t of tools) {
    let c = toolCosts.get(t);
    if (c) {
      if (file && !file.has(c.key)) file.set(c.key, c);
    } else {
      const text = JSON.stringify(t);
      const key = definitionKey(text);
      const stored = file?.get(key);
      if (!stored) {
        missing.push({ tool: t, text, key });
        continue;
      }
      toolCosts.set(t, (c = { ...stored, key }));
    }
    bytes += c.bytes;
    tokens += c.tokens;
  }
  if (missing.length) {
    const counts = await countTokensOf(missing.map((m) => m.text));
    for (const [i, m] of missing.entries()) {
      const c = { bytes: Buffer.byteLength(m.text), tokens: counts[i]!, key: m.key };
      tokenized++;
      toolCosts.set(m.tool, c);
      file?.set(m.key, c);
      bytes += c.bytes;
      tokens += c.tokens;
    }
  }
  return { bytes, tokens };
}

/** An agent's history as the report shows it: promotions and demotions by cause. */
export function countHistory(entries: HistoryEntry[]): AgentReport['history'] {
  const history: AgentReport['history'] = {};
  for (const h of entries) {
    const c = (history[h.cause] ??= { promote: 0, demote: 0 });
    c[h.action]++;
  }
  return history;
}

/** `toISOString` remembered for the times seen: a report writes the same few times thousands of times. */
export function memoIso(): (ms: number | null) => string | null {
  const seen = new Map<number, string>();
  return (ms) => {
    if (ms === null) return null;
    let s = seen.get(ms);
    if (s === undefined) seen.set(ms, (s = new Date(ms).toISOString()));
    return s;
  };
}

export async function buildReport(input: {
  agent: { id: string; name: string; cap: number; idleWindowDays: number };
  listed: MemberRow[];
  listedTools: Tool[];
  toolboxCost: { bytes: number; tokens: number; tools: number };
  tallies: Record<string, Tally>;
  searches: number;
  history: AgentReport['history'];
  daily: AgentReport['daily'];
  /** Counts kept across restarts (tokenCounts.ts). */
  counts?: TokenCountFile;
  droppedCallRecords?: number;
}): Promise<AgentReport> {
  const listedCost = await listingCost(input.listedTools, input.counts);
  const history = input.history;
  return {
    agent: input.agent.id,
    name: input.agent.name,
    cap: input.agent.cap,
    idleWindowDays: input.agent.idleWindowDays,
    listed: input.listed,
    listedTools: input.listedTools.length,
    listedBytes: listedCost.bytes,
    listedTokens: listedCost.tokens,
    toolboxTools: input.toolboxCost.tools,
    toolboxBytes: input.toolboxCost.bytes,
    toolboxTokens: input.toolboxCost.tokens,
    calls: Object.entries(input.tallies)
      .map(([tool, t]) => ({ tool, ok: t.ok, failed: t.failed }))
      // Ties by code unit, not localeCompare: the same order on every machine, and 5,000 tools sort in a fraction of the time.
      .sort((a, b) => b.ok + b.failed - (a.ok + a.failed) || byCodeUnit(a.tool, b.tool)),
    searches: input.searches,
    history,
    daily: input.daily,
    droppedCallRecords: input.droppedCallRecords ?? 0,
  };
}
