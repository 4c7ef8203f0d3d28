// `mws promote`, `mws demote`, `mws cycle` and `mws sweep`: the working set from the command line.
import { DEFAULT_AGENT_ID } from '../../core/config/schema.js';
import { MwsError } from '../../core/errors.js';
import type { Decision } from '../../core/workingset/types.js';
import type { ConfigFlags } from '../config.js';
import { cliConfigLater, cliConfigNow } from '../configLater.js';
import { withControl } from '../instance.js';
import { ago, plural, table } from '../table.js';
import type { Io } from '../output.js';

type Common = ConfigFlags & { agent: string | undefined; json: boolean };

const CAUSE: Record<string, string> = {
  agent: 'the agent asked',
  user: 'you',
  usage: 'usage',
  pin: 'a pin',
  idle: 'unused past the idle window',
  cap: 'over the cap',
  revoked: 'its upstream is gone or refused access',
};

function decisionsTable(decisions: Decision[]): string {
  return table(
    ['agent', 'tool', 'action', 'why'],
    decisions.map((d) => [d.agent, d.tool, d.action, CAUSE[d.cause] ?? d.cause]),
  );
}

/** `mws promote TOOL --agent A`. */
export async function runPromote(io: Io, f: Common & { tool: string }): Promise<number> {
  const config = await cliConfigLater(f);
  const agent = f.agent ?? DEFAULT_AGENT_ID;
  return withControl(config, async ({ api }) => {
    const r = await api.promote({ agent, tool: f.tool });
    io.out(
      f.json
        ? JSON.stringify(r)
        : r.changed
          ? `Promoted ${r.tool} for ${agent}; its list now has ${plural(r.size, 'tool')}.`
          : `${r.tool} was already in ${agent}'s list (${plural(r.size, 'tool')}).`,
    );
    return 0;
  });
}

export async function runDemote(io: Io, f: Common & { tool: string | undefined }): Promise<number> {
  if (!f.tool) throw new MwsError('usage', 'mws demote needs a tool name: mws demote TOOL --agent ID');
  const config = await cliConfigLater(f);
  const agent = f.agent ?? DEFAULT_AGENT_ID;
  return withControl(config, async ({ api }) => {
    const r = await api.demote({ agent, tool: f.tool! });
    io.out(
      f.json
        ? JSON.stringify(r)
        : r.changed
          ? `Demoted ${r.tool} for ${agent}; its list now has ${plural(r.size, 'tool')}. It stays reachable through search_tools.`
          : `${r.tool} was not in ${agent}'s list (${plural(r.size, 'tool')}).`,
    );
    return 0;
  });
}

/** `mws cycle [--dry-run]`: usage promotion and the sweep now, as a decision table. */
export async function runCycle(io: Io, f: Common & { dryRun: boolean }): Promise<number> {
  const { config } = await cliConfigNow(f);
  return withControl(config, async ({ api }) => {
    const r = await api.cycle({ dryRun: f.dryRun, ...(f.agent ? { agents: [f.agent] } : {}) });
    if (f.json) {
      io.out(JSON.stringify(r));
      return 0;
    }
    const p = config.promote;
    for (const [agent, rows] of Object.entries(r.usage)) {
      io.out(
        `Usage for ${agent} (a tool comes in at ${plural(p.minSessions, 'session')} and ${plural(p.minCalls, 'call')} within ${plural(p.windowDays, 'day')}):`,
      );
      io.out(
        rows.length
          ? table(
              ['tool', 'sessions', 'calls', 'last used', 'decision'],
              rows.map((c) => [c.tool, c.sessions, c.calls, ago(new Date(c.lastUse).toISOString()), c.promote ? 'promote' : c.reason]),
            )
          : '  no usage recorded yet',
      );
      io.out('');
    }
    if (r.decisions.length === 0) io.out(f.dryRun ? 'Nothing would change now.' : 'Nothing changed.');
    else io.out(`${f.dryRun ? 'Would change (nothing was applied)' : 'Changed'}:\n${decisionsTable(r.decisions)}`);
    return 0;
  });
}

/** `mws sweep --dry-run --now <ISO>`: what the sweep would decide at that time. Without --dry-run, runs the cycle now. */
export async function runSweep(io: Io, f: Common & { dryRun: boolean; now: string | undefined }): Promise<number> {
  const config = await cliConfigLater(f);
  return withControl(config, async ({ api }) => {
    let decisions: Decision[];
    if (f.dryRun) {
      decisions = await api.sweepPreview({ now: f.now ?? new Date().toISOString(), ...(f.agent ? { agents: [f.agent] } : {}) });
    } else {
      if (f.now) throw new MwsError('usage', '--now goes with --dry-run: a real sweep happens at the real time.');
      decisions = (await api.cycle({ ...(f.agent ? { agents: [f.agent] } : {}) })).decisions.filter((d) => d.action === 'demote');
    }
    const rows = decisions
      .filter((d) => d.action === 'demote')
      .map((d) => ({ agent: d.agent, tool: d.tool, action: 'demote' as const, cause: d.cause }));
    if (f.json) {
      io.out(JSON.stringify(rows));
      return 0;
    }
    const when = f.now ? `at ${f.now}` : 'now';
    if (rows.length === 0) io.out(f.dryRun ? `A sweep ${when} would demote nothing.` : 'The sweep demoted nothing.');
    else
      io.out(
        `${f.dryRun ? `A sweep ${when} would demote ${plural(rows.length, 'tool')}` : `The sweep demoted ${plural(rows.length, 'tool')}`}:\n${decisionsTable(rows)}`,
      );
    return 0;
  });
}

/** `mws pin|unpin TOOL --agent A`: the agent's `pins` in the config, through the running instance. */
export async function runPin(io: Io, f: Common & { tool: string | undefined; pinned: boolean }): Promise<number> {
  const verb = f.pinned ? 'pin' : 'unpin';
  if (!f.tool) throw new MwsError('usage', `mws ${verb} needs a tool name: \`mws ${verb} TOOL --agent ID\`.`);
  const loaded = await cliConfigNow(f);
  const { config } = loaded;
  const agent = f.agent ?? DEFAULT_AGENT_ID;
  return withControl(
    config,
    async ({ api }) => {
      const pinsBefore = loaded.fileError ? undefined : config.agents.find((a) => a.id === agent)?.pins;
      if (!f.pinned && pinsBefore && !pinsBefore.includes(f.tool!)) {
        if (f.json) io.out(JSON.stringify({ agent, tool: f.tool, pinned: false, changed: false }));
        else io.out(`${f.tool} was not pinned for ${agent}; nothing changed.`);
        return 0;
      }
      const rows = await api.pin({ agent, tool: f.tool!, pinned: f.pinned });
      const row = rows.find((r) => r.tool === f.tool);
      // A name no upstream lists may be a typo: the tools search finds for it are offered.
      const near =
        f.pinned && !row?.available
          ? (await api.search({ agent, query: f.tool!, limit: 3 }).catch(() => ({ hits: [] }))).hits
              .map((h) => h.name)
              .filter((n) => n !== f.tool)
          : [];
      if (f.json) {
        io.out(JSON.stringify({ agent, tool: f.tool, pinned: f.pinned, size: rows.length, listed: row !== undefined }));
        return 0;
      }
      if (f.pinned)
        io.out(
          `Pinned ${f.tool} for ${agent}: it stays in its list (${plural(rows.length, 'tool')}) and the sweep never demotes it.${!row?.available ? ` No upstream lists it right now; it is served once one does.${near.length ? ` Did you mean ${near.join(', ')}? (\`mws unpin ${f.tool} --agent ${agent}\` takes it back.)` : ''}` : ''}`,
        );
      else
        io.out(
          `Unpinned ${f.tool} for ${agent}: ${row ? 'it stays listed until the sweep finds it idle' : 'it is no longer in its list'} (${plural(rows.length, 'tool')}).`,
        );
      return 0;
    },
    loaded,
  );
}
