// `mws promote`, `mws demote`, `mws sweep` and `mws approve`: the working set from the command line.
import { DEFAULT_AGENT_ID } from '../../core/config/schema.js';
import { MwsError } from '../../core/errors.js';
import type { Decision } from '../../core/workingset/types.js';
import { cliConfig, type ConfigFlags } from '../config.js';
import { withControl } from '../instance.js';
import { table } from '../table.js';
import type { Io } from '../output.js';

type Common = ConfigFlags & { agent: string | undefined; json: boolean };

function decisionsTable(decisions: Decision[]): string {
  if (decisions.length === 0) return 'No changes.';
  return table(['agent', 'tool', 'action', 'cause'], decisions.map((d) => [d.agent, d.tool, d.action, d.cause]));
}

/** `mws promote TOOL --agent A`, or with no tool the usage-promotion and sweep table (applied unless --dry-run). */
export async function runPromote(io: Io, f: Common & { tool: string | undefined; dryRun: boolean }): Promise<number> {
  const { config } = await cliConfig(f);
  return withControl(config, async ({ api }) => {
    if (f.tool) {
      if (f.dryRun) throw new MwsError('usage', '--dry-run goes with `mws promote` alone (the decision table), not with a tool name.');
      const r = await api.promote({ agent: f.agent ?? DEFAULT_AGENT_ID, tool: f.tool });
      io.out(f.json ? JSON.stringify(r) : r.changed ? `Promoted ${r.tool} for ${f.agent ?? DEFAULT_AGENT_ID}; the list now has ${r.size} tools.` : `${r.tool} was already listed (${r.size} tools).`);
      return 0;
    }
    const r = await api.cycle({ dryRun: f.dryRun, ...(f.agent ? { agents: [f.agent] } : {}) });
    if (f.json) {
      io.out(JSON.stringify(r));
      return 0;
    }
    for (const [agent, rows] of Object.entries(r.usage)) {
      io.out(`Usage for ${agent} (promote at ${config.promote.minSessions}+ sessions and ${config.promote.minCalls}+ calls in ${config.promote.windowDays} days):`);
      io.out(rows.length ? table(['tool', 'sessions', 'calls', 'last use', 'decision'], rows.map((c) => [c.tool, c.sessions, c.calls, new Date(c.lastUse).toISOString(), c.promote ? 'promote' : c.reason])) : '  no usage recorded yet');
      io.out('');
    }
    io.out(`${f.dryRun ? 'Would apply' : 'Applied'}:`);
    io.out(decisionsTable(r.decisions));
    return 0;
  });
}

export async function runDemote(io: Io, f: Common & { tool: string | undefined }): Promise<number> {
  if (!f.tool) throw new MwsError('usage', 'mws demote needs a tool name: mws demote TOOL --agent A');
  const { config } = await cliConfig(f);
  return withControl(config, async ({ api }) => {
    const r = await api.demote({ agent: f.agent ?? DEFAULT_AGENT_ID, tool: f.tool! });
    io.out(f.json ? JSON.stringify(r) : r.changed ? `Demoted ${r.tool} for ${f.agent ?? DEFAULT_AGENT_ID}; the list now has ${r.size} tools. It stays reachable through search_tools.` : `${r.tool} was not in the list (${r.size} tools).`);
    return 0;
  });
}

/** `mws sweep --dry-run --now <ISO>`: what the sweep would decide at that time. Without --dry-run, runs the cycle now. */
export async function runSweep(io: Io, f: Common & { dryRun: boolean; now: string | undefined }): Promise<number> {
  const { config } = await cliConfig(f);
  return withControl(config, async ({ api }) => {
    let decisions: Decision[];
    if (f.dryRun) {
      decisions = await api.sweepPreview({ now: f.now ?? new Date().toISOString(), ...(f.agent ? { agents: [f.agent] } : {}) });
    } else {
      if (f.now) throw new MwsError('usage', '--now goes with --dry-run: a real sweep happens at the real time.');
      decisions = (await api.cycle({ ...(f.agent ? { agents: [f.agent] } : {}) })).decisions.filter((d) => d.action === 'demote');
    }
    const rows = decisions.filter((d) => d.action === 'demote').map((d) => ({ agent: d.agent, tool: d.tool, action: 'demote' as const, cause: d.cause }));
    if (f.json) io.out(JSON.stringify(rows));
    else io.out(`${f.dryRun ? `The sweep at ${f.now ?? 'now'} would demote` : 'The sweep demoted'}:\n${decisionsTable(rows)}`);
    return 0;
  });
}

/** `mws approve [TOOL] [--agent A] [--deny]`: with no tool, lists calls waiting for approval. */
export async function runApprove(io: Io, f: Common & { tool: string | undefined; deny: boolean }): Promise<number> {
  const { config } = await cliConfig(f);
  return withControl(config, async ({ api, source }) => {
    if (!f.tool) {
      const pending = await api.pendingApprovals(f.agent ? { agent: f.agent } : {});
      if (f.json) io.out(JSON.stringify(pending));
      else io.out(pending.length ? table(['agent', 'tool', 'waiting since', 'arguments'], pending.map((p) => [p.agent, p.tool, new Date(p.since).toISOString(), JSON.stringify(p.arguments).slice(0, 60)])) : 'No calls are waiting for approval.');
      return 0;
    }
    const agent = f.agent ?? DEFAULT_AGENT_ID;
    const r = await api.approve({ agent, tool: f.tool, deny: f.deny });
    if (f.json) io.out(JSON.stringify(r));
    else if (f.deny) io.out(`Denied ${r.decided} waiting call${r.decided === 1 ? '' : 's'} of ${r.tool} for ${agent}.`);
    else io.out(`Allowed ${r.tool} for ${agent}${r.decided ? `; ${r.decided} waiting call${r.decided === 1 ? '' : 's'} will run now` : ''}. It will not ask again unless its definition changes.${source === 'config' ? ' (No instance is running: the approval was saved for its next start.)' : ''}`);
    return 0;
  });
}
