// The report: what each agent lists and what that costs in context, against listing everything.
// Token counts use a real tokenizer (gpt-tokenizer, o200k_base), not bytes/4.
import type { Tool } from '@modelcontextprotocol/client';
import type { HistoryEntry } from '../workingset/types.js';
import type { AgentReport, MemberRow } from './api.js';
import type { Tally } from '../usage/usageStore.js';

/** Loaded on first use: its encoding tables take a moment to parse, and only reports need them. */
let tokenizer: Promise<(text: string) => number> | undefined;

export async function listingCost(tools: Tool[]): Promise<{ bytes: number; tokens: number }> {
  tokenizer ??= import('gpt-tokenizer').then((m) => m.countTokens);
  const text = JSON.stringify(tools);
  return { bytes: Buffer.byteLength(text), tokens: (await tokenizer)(text) };
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
