// `mws approve`: the approvals inbox from the command line: waiting calls, standing grants, and the
// answers (always allow, allow once, deny, withdraw).
import { DEFAULT_AGENT_ID } from '../../core/config/schema.js';
import { MwsError } from '../../core/errors.js';
import type { PendingView } from '../../core/approvals/types.js';
import type { ConfigFlags } from '../config.js';
import { cliConfigLater } from '../configLater.js';
import { withControl } from '../instance.js';
import { ago, brief, plural, table } from '../table.js';
import type { Io } from '../output.js';

type Flags = ConfigFlags & {
  agent: string | undefined;
  json: boolean;
  tool: string | undefined;
  list: boolean;
  once: boolean;
  deny: boolean;
  revoke: boolean;
};

const secs = (ms: number) => (ms < 90_000 ? `${Math.max(0, Math.round(ms / 1000))} s` : `${Math.round(ms / 60_000)} min`);
const args = (a: Record<string, unknown>) => {
  const s = JSON.stringify(a);
  return s.length > 60 ? `${s.slice(0, 59)}…` : s;
};

export function pendingTable(pending: PendingView[]): string {
  if (!pending.length) return 'No calls are waiting for approval.';
  return `${plural(pending.length, 'call')} waiting for approval:\n${table(
    ['agent', 'tool', 'kind', 'waited', 'left', 'arguments'],
    pending.map((p) => [
      p.agent,
      p.tool + (p.withdrawn ? ' (changed since allowed)' : ''),
      p.kind,
      secs(p.now - p.since),
      secs(p.expiresAt - p.now),
      args(p.arguments),
    ]),
  )}`;
}

export async function runApprove(io: Io, f: Flags): Promise<number> {
  if ([f.once, f.deny, f.revoke].filter(Boolean).length > 1)
    throw new MwsError('usage', 'Give one of --once, --deny and --revoke, not several.');
  if (!f.tool && (f.once || f.deny || f.revoke))
    throw new MwsError(
      'usage',
      `--${f.once ? 'once' : f.deny ? 'deny' : 'revoke'} needs a tool: mws approve TOOL --agent ID --${f.once ? 'once' : f.deny ? 'deny' : 'revoke'}`,
    );
  const config = await cliConfigLater(f);
  return withControl(config, async ({ api, source }) => {
    if (!f.tool) {
      const pending = await api.pendingApprovals(f.agent ? { agent: f.agent } : {});
      const grants = f.list ? await api.grants(f.agent ? { agent: f.agent } : {}) : undefined;
      if (f.json) {
        io.out(JSON.stringify(grants ? { pending, grants } : pending));
        return 0;
      }
      io.out(pendingTable(pending));
      if (grants) {
        io.out('');
        io.out(
          grants.length
            ? `Allowed without asking (\`mws approve TOOL --agent ID --revoke\` withdraws one):\n${table(
                ['agent', 'tool', 'kind', 'allowed', 'does'],
                grants.map((g) => [
                  g.agent,
                  g.tool + (g.available ? '' : ' (not listed upstream now)'),
                  g.kind,
                  ago(new Date(g.since).toISOString()),
                  brief(g.description ?? '', 50),
                ]),
              )}`
            : 'No tool is allowed without asking yet.',
        );
      }
      return 0;
    }
    const agent = f.agent ?? DEFAULT_AGENT_ID;
    if (f.revoke) {
      const r = await api.revokeGrant({ agent, tool: f.tool });
      io.out(
        f.json
          ? JSON.stringify(r)
          : r.revoked
            ? `Withdrawn: ${r.tool} asks ${agent}'s user again on its next call.`
            : `${r.tool} was not allowed for ${agent}, so there was nothing to withdraw.`,
      );
      return 0;
    }
    const r = await api.approve({ agent, tool: f.tool, deny: f.deny, once: f.once });
    if (f.json) io.out(JSON.stringify(r));
    else if (f.deny)
      io.out(
        `Denied ${plural(r.decided, 'waiting call')} of ${r.tool} for ${agent}${r.withdrawn ? ', and withdrew its standing grant: it asks again next time' : ''}.`,
      );
    else if (f.once) io.out(`Allowed ${plural(r.decided, 'waiting call')} of ${r.tool} for ${agent}, this once; its next call asks again.`);
    else
      io.out(
        `Allowed ${r.tool} for ${agent}${r.decided ? `; ${plural(r.decided, 'waiting call')} will run now` : ''}. It will not ask again unless its definition changes (\`--revoke\` withdraws this).${source === 'config' ? ' (No instance is running: the approval was saved for its next start.)' : ''}`,
      );
    return 0;
  });
}
