// The report: what each agent lists and what that costs in context, against listing everything.
// Token counts use a real tokenizer (gpt-tokenizer, o200k_base), not bytes/4.
import type { Tool } from '@modelcontextprotocol/client';
import type { HistoryEntry } from '../workingset/types.js';
import type { AgentReport, MemberRow } from './api.js';
import type { Tally } from '../usage/usageStore.js';

/** Loaded on first use: its encoding tables take a moment to parse, and only reports need them. */
let tokenizer: Promise<(text: string) => number> | undefined;

/**
 * Per listed tool object (listings reuse one object per unchanged tool definition, Toolbox.listed):
 * a report tokenizes only tools it has not seen, never the whole listing again.
 */
const toolCosts = new WeakMap<Tool, { bytes: number; tokens: number }>();

/**
 * What a tools/list of `tools` costs: the sum of each tool's JSON, plus the brackets and commas. In
 * o200k_base the comma between two tools merges with the next tool's opening `{"`, so this equals
 * tokenizing the whole array (checked in test/unit/reportCost.test.ts).
 */
export async function listingCost(tools: Tool[]): Promise<{ bytes: number; tokens: number }> {
  tokenizer ??= import('gpt-tokenizer').then((m) => m.countTokens);
  const count = await tokenizer;
  if (tools.length === 0) return { bytes: 2, tokens: count('[]') };
  let bytes = 2 + tools.length - 1;
  let tokens = 2;
  for (const t of tools) {
    let c = toolCosts.get(t);
    if (!c) {
      const text = JSON.stringify(t);
      c = { bytes: Buffer.byteLength(text), tokens: count(text) };
      toolCosts.set(t, c);
    }
    bytes += c.bytes;
    tokens += c.tokens;
  }
  return { bytes, tokens };
}

export async function buildReport(input: {
  agent: { id: string; name: string; cap: number; idleWindowDays: number };
  listed: MemberRow[];
  listedTools: Tool[];
  toolboxCost: { bytes: number; tokens: number; tools: number };
  tallies: Record<string, Tally>;
  searches: number;
  history: HistoryEntry[];
  daily: AgentReport['daily'];
}): Promise<AgentReport> {
  const listedCost = await listingCost(input.listedTools);
  const history: AgentReport['history'] = {};
  for (const h of input.history) {
    const c = (history[h.cause] ??= { promote: 0, demote: 0 });
    c[h.action]++;
  }
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
      .sort((a, b) => b.ok + b.failed - (a.ok + a.failed) || a.tool.localeCompare(b.tool)),
    searches: input.searches,
    history,
    daily: input.daily,
  };
}
