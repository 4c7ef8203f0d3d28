// The upstreams, their tools and values, the activity log of calls, and the agents.
import { MwsError } from '../../core/errors.js';
import { CONFIG, JSON_OUT, str, flag, list, type Spec } from '../spec.js';

export const UPSTREAMS: Record<string, Spec> = {
  upstream: {
    summary: 'list, add, edit or remove upstreams, turn one off or on, restart it, follow its log, or give it a value',
    usage: [
      'mws upstream list [--json]                       each upstream, its status and the next step',
      'mws upstream add NAME --url URL [--header K=V]   an HTTP server',
      'mws upstream add NAME [--env K=V] -- COMMAND ARGS…   a server that runs as a command',
      'mws upstream edit NAME [--url URL | -- COMMAND ARGS…] [--header K=V] [--env K=V]   (K= removes K)',
      'mws upstream remove NAME',
      'mws upstream log NAME [--lines N] [--follow]',
      'mws upstream enable|disable|restart NAME',
      'mws upstream set NAME KEY            asked without echo, kept in the secret store',
      'mws upstream set NAME KEY --stdin    read from stdin (e.g. piped from a password manager)',
      'mws upstream set NAME KEY VALUE      only for a value that is not a secret',
    ],
    options: {
      config: CONFIG,
      json: JSON_OUT,
      lines: { type: 'string', arg: 'N', help: 'with log: the last N lines (1–200)' },
      follow: { type: 'boolean', help: 'with log: keep printing new lines as they come (Ctrl-C stops)' },
      stdin: { type: 'boolean', help: 'with set: read the value from stdin (one trailing line end is dropped)' },
      url: { type: 'string', arg: 'URL', help: "with add/edit: the HTTP server's URL" },
      header: { type: 'string', arg: 'K=V', multiple: true, help: 'with add/edit: a header sent to it (again for more; K= removes K)' },
      env: { type: 'string', arg: 'K=V', multiple: true, help: 'with add/edit: a variable of its command (again for more; K= removes K)' },
    },
    positionals: Infinity,
    run: async (io, v, pos, after) => {
      if (pos[0] === 'set') {
        if (pos.length > 4)
          throw new MwsError('usage', 'mws upstream set takes NAME KEY and at most one VALUE; quote a value with spaces.');
        return (await import('../commands/upstreamValue.js')).runUpstreamSet(io, {
          config: str(v.config),
          vendor: pos[1],
          key: pos[2],
          value: pos[3],
          stdin: flag(v.stdin),
        });
      }
      const lines = str(v.lines) === undefined ? undefined : Number(v.lines);
      if (lines !== undefined && (!Number.isInteger(lines) || lines < 1 || lines > 200))
        throw new MwsError('usage', `--lines must be a whole number from 1 to 200 (got "${v.lines}").`);
      return (await import('../commands/upstream.js')).runUpstream(io, {
        config: str(v.config),
        json: flag(v.json),
        lines,
        rest: pos,
        follow: flag(v.follow),
        input: { url: str(v.url), command: after, headers: list(v.header), env: list(v.env) },
      });
    },
  },
  tool: {
    summary: "hide one tool of an upstream from every agent and from search, show it again, or list an upstream's tools",
    usage: ['mws tool hide|unhide UPSTREAM TOOL', 'mws tool list UPSTREAM [--json]'],
    options: { config: CONFIG, json: JSON_OUT },
    positionals: 3,
    run: async (io, v, pos) => (await import('../commands/tool.js')).runTool(io, { config: str(v.config), json: flag(v.json), rest: pos }),
  },
  secrets: {
    summary: "the secret store: list its names, or move config.json's plain-text secrets into it",
    usage: ['mws secrets [list] [--json]', 'mws secrets migrate [--json]'],
    options: { config: CONFIG, json: JSON_OUT },
    positionals: 1,
    run: async (io, v, pos) =>
      (await import('../commands/upstreamValue.js')).runSecrets(io, { config: str(v.config), action: pos[0], json: flag(v.json) }),
  },
  activity: {
    summary: 'the latest calls: agent, tool, upstream, duration, ok or error',
    usage: ['mws activity [--agent ID] [--limit N] [--json]'],
    options: {
      config: CONFIG,
      agent: { type: 'string', arg: 'ID', help: "only this agent's calls (default: every agent)" },
      json: JSON_OUT,
      limit: { type: 'string', arg: 'N', help: 'the last N calls (1–1000, default 100)' },
    },
    positionals: 0,
    run: async (io, v) => {
      const limit = str(v.limit) === undefined ? undefined : Number(v.limit);
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 1000))
        throw new MwsError('usage', `--limit must be a whole number from 1 to 1000 (got "${v.limit}").`);
      return (await import('../commands/activity.js')).runActivity(io, {
        config: str(v.config),
        agent: str(v.agent),
        json: flag(v.json),
        limit,
      });
    },
  },
  agent: {
    summary: 'a new bearer token for an agent (its endpoint then requires it)',
    usage: ['mws agent token ID'],
    options: { config: CONFIG },
    positionals: 2,
    run: async (io, v, pos) => {
      if (pos[0] !== 'token')
        throw new MwsError('usage', 'Usage: `mws agent token <agent-id>` makes a new bearer token for that agent and shows it once.');
      return (await import('../commands/agentToken.js')).runAgentToken(io, { config: str(v.config), agent: pos[1] });
    },
  },
};
