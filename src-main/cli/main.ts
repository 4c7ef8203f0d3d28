// `mws`: parses the command line and runs one command. Each command lives in its own file and is
// imported only when it runs, so `mws --help` or a typo never loads the core.
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MwsError } from '../core/errors.js';
import { processIo, reportError, type Io } from './output.js';
import { closest } from './suggest.js';

/** `multiple`: the flag may be given more than once (`--header A=1 --header B=2`). */
type Opt = { type: 'string' | 'boolean'; arg?: string; help: string; multiple?: boolean };
type Values = Record<string, string | boolean | string[] | undefined>;
type Spec = {
  summary: string;
  usage: string[];
  options: Record<string, Opt>;
  /** How many words may follow the command. */
  positionals: number;
  /** `after`: the words after `--`, kept apart from `pos` (a command an upstream runs, with its own flags). */
  run: (io: Io, v: Values, pos: string[], after: string[]) => Promise<number>;
};

const CONFIG: Opt = { type: 'string', arg: 'FILE', help: 'the config file (else $MWS_CONFIG, else ~/.config/mcp-working-set/config.json)' };
const JSON_OUT: Opt = { type: 'boolean', help: 'print JSON for scripts instead of a table' };
const AGENT: Opt = { type: 'string', arg: 'ID', help: 'the agent (default: default)' };
/** report, cycle and sweep cover every agent unless one is named. */
const ONE_AGENT: Opt = { type: 'string', arg: 'ID', help: 'only this agent (default: every agent)' };
const DEMO: Opt = { type: 'boolean', help: 'with no upstream configured, use the built-in demo toolbox' };

const str = (v: Values[string]) => (typeof v === 'string' ? v : undefined);
const flag = (v: Values[string]) => v === true;
const list = (v: Values[string]) => (Array.isArray(v) ? v : typeof v === 'string' ? [v] : []);
const common = (v: Values) => ({ config: str(v.config), demo: flag(v.demo), agent: str(v.agent), json: flag(v.json) });

const COMMANDS: Record<string, Spec> = {
  status: {
    summary: 'the running instance: its URL, each agent and its list, upstreams up and down',
    usage: ['mws status [--json]'],
    options: { config: CONFIG, json: JSON_OUT },
    positionals: 0,
    run: async (io, v) => (await import('./commands/status.js')).runStatus(io, { config: str(v.config), json: flag(v.json) }),
  },
  serve: {
    summary: 'run the proxy in the foreground',
    usage: ['mws serve [--config FILE] [--port N] [--demo] [--log-format text|json]'],
    options: {
      config: CONFIG,
      port: { type: 'string', arg: 'N', help: 'listen on this port (0: any free one)' },
      demo: DEMO,
      'log-format': { type: 'string', arg: 'text|json', help: 'json: one JSON object per log line on stderr (for a log collector)' },
    },
    positionals: 0,
    run: async (io, v) =>
      (await import('./commands/serve.js')).runServe(io, {
        config: str(v.config),
        port: parsePort(str(v.port)),
        demo: flag(v.demo),
        logFormat: parseLogFormat(str(v['log-format'])),
      }),
  },
  doctor: {
    summary: 'check the config, the port, the state folder, each upstream, each client and the search model',
    usage: ['mws doctor [--json]   each finding is a sentence with its fix; exit code 1 when any is a problem'],
    options: { config: CONFIG, json: JSON_OUT },
    positionals: 0,
    run: async (io, v) => (await import('./commands/doctor.js')).runDoctor(io, { config: str(v.config), json: flag(v.json) }),
  },
  'migrate-state': {
    summary: 'move the state folder and config into an empty PostgreSQL database, for replicas to share',
    usage: ['mws migrate-state --to postgres://USER:PASSWORD@HOST:PORT/DATABASE [--config FILE]'],
    options: { config: CONFIG, to: { type: 'string', arg: 'URL', help: 'the empty PostgreSQL database (docs/guide/team.md)' } },
    positionals: 0,
    run: async (io, v) => (await import('./commands/migrateState.js')).runMigrateState(io, { config: str(v.config), to: str(v.to) }),
  },
  init: {
    summary: 'write a starting config (never overwrites one)',
    usage: ['mws init [--config FILE]'],
    options: { config: CONFIG },
    positionals: 0,
    run: async (io, v) => (await import('./commands/init.js')).runInit(io, { config: str(v.config) }),
  },
  import: {
    summary: 'move servers in from Claude Desktop, Claude Code, Cursor, VS Code or Codex',
    usage: ['mws import [--from CLIENT] [--dry-run]', 'mws import FILE [--only NAME,NAME] [--as NAME=NEW] [--dry-run] [--edit-client]'],
    options: {
      config: CONFIG,
      from: { type: 'string', arg: 'CLIENT', help: 'only this client: claude-desktop, claude-code, cursor, vscode or codex' },
      only: { type: 'string', arg: 'NAMES', help: 'import only these servers (comma-separated names)' },
      'dry-run': { type: 'boolean', help: 'show what would be added and the client edit, change nothing' },
      'edit-client': { type: 'boolean', help: 'also rewrite the client file (a backup is kept next to it)' },
      as: {
        type: 'string',
        arg: 'NAME=NEW',
        help: 'import the server NAME as the upstream NEW (when its name is taken here); comma-separated pairs',
      },
      agent: { type: 'string', arg: 'ID', help: 'the agent whose endpoint the client should use (default: default)' },
      json: JSON_OUT,
    },
    positionals: 1,
    run: async (io, v, pos) =>
      (await import('./commands/import.js')).runImport(io, {
        config: str(v.config),
        file: pos[0],
        from: str(v.from),
        only: str(v.only),
        dryRun: flag(v['dry-run']),
        editClient: flag(v['edit-client']),
        agent: str(v.agent),
        json: flag(v.json),
        as: str(v.as),
      }),
  },
  search: {
    summary: 'the exact reply search_tools gives a model',
    usage: ['mws search "<query>" [--agent ID] [--limit N] [--json] [--explain]'],
    options: {
      config: CONFIG,
      agent: AGENT,
      limit: { type: 'string', arg: 'N', help: 'at most N hits (1–50)' },
      json: { type: 'boolean', help: 'print the exact reply the model gets, as JSON, instead of a table' },
      demo: DEMO,
      explain: { type: 'boolean', help: 'show which query word matched which field of each hit (learned words included)' },
    },
    positionals: Infinity,
    run: async (io, v, pos) => {
      const limit = str(v.limit) === undefined ? undefined : Number(v.limit);
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 50))
        throw new MwsError('usage', `--limit must be a whole number from 1 to 50 (got "${v.limit}").`);
      return (await import('./commands/search.js')).runSearch(io, {
        ...common(v),
        query: pos.join(' ') || undefined,
        limit,
        explain: flag(v.explain),
      });
    },
  },
  eval: {
    summary: 'offline search quality on any catalog and gold set',
    usage: [
      'mws eval --catalog FILE --gold FILE [--json] [--engine hybrid|bm25f|dense|minisearch]',
      'mws eval --catalog FILE --gold FILE [--train FILE | --split 0.5 [--seed N] [--by query|tool]] [--online]',
    ],
    options: {
      catalog: { type: 'string', arg: 'FILE', help: 'a JSON file {"tools": [...]}' },
      gold: { type: 'string', arg: 'FILE', help: 'a JSON array of {"query", "expected": [...]}' },
      json: JSON_OUT,
      engine: {
        type: 'string',
        arg: 'NAME',
        help: 'hybrid (default: words and the sentence model), bm25f (words), dense (the model alone) or minisearch (plain BM25)',
      },
      train: {
        type: 'string',
        arg: 'FILE',
        help: 'a gold file fed first as observed search→call pairs (learning), then --gold is evaluated',
      },
      split: { type: 'string', arg: 'F', help: 'split --gold: this share of it trains, the rest is evaluated' },
      seed: { type: 'string', arg: 'N', help: 'the seed of --split, or a range like 1-8 for the mean and spread over seeds' },
      by: { type: 'string', arg: 'HOW', help: 'split by query (default) or by tool (train and test share no tool)' },
      online: { type: 'boolean', help: 'learn as in use: each evaluated query is answered, then its search→call learned, before the next' },
    },
    positionals: 0,
    run: async (io, v) =>
      (await import('./commands/eval.js')).runEval(io, {
        catalog: str(v.catalog),
        gold: str(v.gold),
        json: flag(v.json),
        engine: str(v.engine),
        train: str(v.train),
        split: str(v.split),
        seed: str(v.seed),
        by: str(v.by),
        online: flag(v.online),
      }),
  },
  learned: {
    summary: 'the words search learned for each tool from searches followed by a call; forget them',
    usage: ['mws learned [--tool NAME] [--agent ID] [--json]', 'mws learned forget TOOL [WORD]   every learned word of TOOL, or only WORD'],
    options: {
      config: CONFIG,
      agent: { type: 'string', arg: 'ID', help: 'weigh as this agent sees them (its own searches count double)' },
      tool: { type: 'string', arg: 'NAME', help: 'only this tool' },
      json: JSON_OUT,
      demo: DEMO,
    },
    positionals: 3,
    run: async (io, v, pos) => {
      const cmd = await import('./commands/learned.js');
      // `--tool NAME` works for forget too (`mws learned forget --tool NAME [WORD]`).
      if (pos[0] === 'forget') {
        const tool = str(v.tool);
        return cmd.runForgetLearned(io, { ...common(v), tool: tool ?? pos[1], word: tool !== undefined ? pos[1] : pos[2] });
      }
      if (pos.length)
        throw new MwsError(
          'usage',
          `mws learned takes no words but "forget" (got "${pos[0]}"): \`mws learned [--tool NAME]\` lists learned words, \`mws learned forget TOOL [WORD]\` forgets them.`,
        );
      return cmd.runLearned(io, { ...common(v), tool: str(v.tool) });
    },
  },
  promote: {
    summary: "put a tool in an agent's working set",
    usage: ['mws promote TOOL [--agent ID]'],
    options: {
      config: CONFIG,
      agent: AGENT,
      json: JSON_OUT,
      demo: DEMO,
      'dry-run': { type: 'boolean', help: '(moved: usage promotion is `mws cycle --dry-run`)' },
    },
    positionals: 1,
    run: async (io, v, pos) => {
      if (!pos[0]) {
        throw new MwsError(
          'usage',
          "mws promote needs a tool name: `mws promote TOOL --agent ID` puts it in that agent's working set. To run usage promotion and the sweep now, use `mws cycle` (`mws cycle --dry-run` only shows the decisions).",
        );
      }
      return (await import('./commands/workingSet.js')).runPromote(io, { ...common(v), tool: pos[0] });
    },
  },
  pin: {
    summary: "keep a tool in an agent's list: the sweep never demotes it",
    usage: ['mws pin TOOL --agent ID'],
    options: { config: CONFIG, agent: AGENT, json: JSON_OUT },
    positionals: 1,
    run: async (io, v, pos) => (await import('./commands/workingSet.js')).runPin(io, { ...common(v), tool: pos[0], pinned: true }),
  },
  unpin: {
    summary: 'take the pin off a tool: it stays listed until the sweep finds it idle',
    usage: ['mws unpin TOOL --agent ID'],
    options: { config: CONFIG, agent: AGENT, json: JSON_OUT },
    positionals: 1,
    run: async (io, v, pos) => (await import('./commands/workingSet.js')).runPin(io, { ...common(v), tool: pos[0], pinned: false }),
  },
  demote: {
    summary: "take a tool out of an agent's working set (search still reaches it)",
    usage: ['mws demote TOOL [--agent ID]'],
    options: { config: CONFIG, agent: AGENT, json: JSON_OUT, demo: DEMO },
    positionals: 1,
    run: async (io, v, pos) => (await import('./commands/workingSet.js')).runDemote(io, { ...common(v), tool: pos[0] }),
  },
  cycle: {
    summary: 'usage promotion and the sweep now: the decision table, applied unless --dry-run',
    usage: ['mws cycle [--dry-run] [--agent ID] [--json]'],
    options: {
      config: CONFIG,
      agent: ONE_AGENT,
      json: JSON_OUT,
      demo: DEMO,
      'dry-run': { type: 'boolean', help: 'show the decisions, change nothing' },
    },
    positionals: 0,
    run: async (io, v) => (await import('./commands/workingSet.js')).runCycle(io, { ...common(v), dryRun: flag(v['dry-run']) }),
  },
  sweep: {
    summary: 'demote idle tools now (with --dry-run: what a sweep would demote at a given time)',
    usage: [
      'mws sweep [--agent ID] [--json]                    sweep now (runs usage promotion too, as `mws cycle`)',
      'mws sweep --dry-run [--now ISO-TIME] [--agent ID]   only show what a sweep then would demote',
    ],
    options: {
      config: CONFIG,
      agent: ONE_AGENT,
      json: JSON_OUT,
      demo: DEMO,
      'dry-run': { type: 'boolean', help: 'show the decisions, change nothing' },
      now: { type: 'string', arg: 'ISO', help: 'with --dry-run: the time to sweep at, e.g. 2026-12-24T09:00:00Z' },
    },
    positionals: 0,
    run: async (io, v) =>
      (await import('./commands/workingSet.js')).runSweep(io, { ...common(v), dryRun: flag(v['dry-run']), now: str(v.now) }),
  },
  report: {
    summary: 'listed tools, context cost, calls, searches and history per agent',
    usage: ['mws report [--agent ID] [--json]'],
    options: { config: CONFIG, agent: ONE_AGENT, json: JSON_OUT, demo: DEMO },
    positionals: 0,
    run: async (io, v) => (await import('./commands/report.js')).runReport(io, common(v)),
  },
  approve: {
    summary: 'answer calls waiting for approval, and list or withdraw standing grants',
    usage: [
      'mws approve                            calls waiting for approval',
      'mws approve --list [--agent ID]        waiting calls and the tools each agent may run without asking',
      'mws approve TOOL --agent ID [--once]   allow it (always, or just the waiting calls with --once)',
      'mws approve TOOL --agent ID --deny     deny its waiting calls',
      'mws approve TOOL --agent ID --revoke   withdraw a standing grant: it asks again next time',
    ],
    options: {
      config: CONFIG,
      agent: AGENT,
      json: JSON_OUT,
      demo: DEMO,
      list: { type: 'boolean', help: 'also list standing grants' },
      once: { type: 'boolean', help: 'allow only the calls waiting now' },
      deny: { type: 'boolean', help: 'deny the waiting calls' },
      revoke: { type: 'boolean', help: 'withdraw the standing grant' },
    },
    positionals: 1,
    run: async (io, v, pos) =>
      (await import('./commands/approve.js')).runApprove(io, {
        ...common(v),
        tool: pos[0],
        list: flag(v.list),
        once: flag(v.once),
        deny: flag(v.deny),
        revoke: flag(v.revoke),
      }),
  },
  pause: {
    summary: 'pause the running proxy (clients are told to wait), or only automatic demotion',
    usage: ['mws pause [--demotion]'],
    options: { config: CONFIG, demotion: { type: 'boolean', help: 'pause only automatic demotion; the proxy keeps serving' } },
    positionals: 0,
    run: async (io, v) =>
      (await import('./commands/pause.js')).runPause(io, { config: str(v.config), demotion: flag(v.demotion), paused: true }),
  },
  resume: {
    summary: 'resume the proxy, or automatic demotion',
    usage: ['mws resume [--demotion]'],
    options: { config: CONFIG, demotion: { type: 'boolean', help: 'resume only automatic demotion' } },
    positionals: 0,
    run: async (io, v) =>
      (await import('./commands/pause.js')).runPause(io, { config: str(v.config), demotion: flag(v.demotion), paused: false }),
  },
  login: {
    summary: 'sign in to an OAuth upstream (prints the link, opens a browser when there is one, waits)',
    usage: [
      'mws login UPSTREAM [--no-browser] [--reset]',
      "mws login --operator URL [--no-browser]   sign the CLI in to a remote instance through the team's identity provider",
    ],
    options: {
      config: CONFIG,
      'no-browser': { type: 'boolean', help: 'only print the link' },
      reset: { type: 'boolean', help: "forget the tokens and Working Set's registration at the server first" },
      operator: { type: 'string', arg: 'URL', help: 'sign in as an operator of the instance at URL (then: MWS_REMOTE=URL mws …)' },
    },
    positionals: 1,
    run: async (io, v, pos) => {
      const operator = str(v.operator);
      if (operator !== undefined) {
        if (pos[0]) throw new MwsError('usage', '`mws login --operator URL` takes no upstream name.');
        const { runOperatorLogin } = await import('./commands/operatorLogin.js');
        return runOperatorLogin(io, { config: str(v.config), url: operator, browser: !flag(v['no-browser']) });
      }
      return (await import('./commands/login.js')).runLogin(io, {
        config: str(v.config),
        vendor: pos[0],
        browser: !flag(v['no-browser']),
        reset: flag(v.reset),
      });
    },
  },
  logout: {
    summary: 'sign out of an OAuth upstream (its tokens are revoked where the server supports it; the registration is forgotten)',
    usage: ['mws logout UPSTREAM', 'mws logout --operator URL   forget (and revoke) the sign-in to a remote instance'],
    options: { config: CONFIG, operator: { type: 'string', arg: 'URL', help: 'sign out of the instance at URL' } },
    positionals: 1,
    run: async (io, v, pos) => {
      const operator = str(v.operator);
      if (operator !== undefined)
        return (await import('./commands/operatorLogin.js')).runOperatorLogout(io, { config: str(v.config), url: operator });
      return (await import('./commands/login.js')).runLogout(io, { config: str(v.config), vendor: pos[0] });
    },
  },
  auth: {
    summary: 'each OAuth upstream: signed in, sign in, or sign in again, and when its token expires',
    usage: ['mws auth status [--json]'],
    options: { config: CONFIG, json: JSON_OUT },
    positionals: 1,
    run: async (io, v, pos) => {
      if (pos[0] !== undefined && pos[0] !== 'status')
        throw new MwsError(
          'usage',
          `mws auth takes "status" (got "${pos[0]}"); \`mws login NAME\` signs in, \`mws logout NAME\` signs out.`,
        );
      return (await import('./commands/auth.js')).runAuthStatus(io, { config: str(v.config), json: flag(v.json) });
    },
  },
  client: {
    summary: 'point Claude Code, Claude Desktop, Cursor, VS Code or Codex at an agent, or see which point here',
    usage: [
      'mws client list [--json]                      which clients point here, and at which agent',
      'mws client connect CLIENT [--agent ID]        CLIENT: claude-code, claude-desktop, cursor, vscode or codex',
    ],
    options: { config: CONFIG, agent: AGENT, json: JSON_OUT },
    positionals: 2,
    run: async (io, v, pos) => {
      const cmd = await import('./commands/client.js');
      if (pos[0] === 'list' && pos.length === 1) return cmd.runClientList(io, common(v));
      if (pos[0] === 'connect') return cmd.runClientConnect(io, { ...common(v), client: pos[1] });
      throw new MwsError(
        'usage',
        `mws client takes "list" or "connect CLIENT"${pos[0] ? ` (got "${pos.join(' ')}")` : ''}: \`mws client connect cursor --agent default\` points Cursor at that agent.`,
      );
    },
  },
  ui: {
    summary: "a new one-time link to the running instance's settings window",
    usage: ['mws ui [--revoke-all]'],
    options: { config: CONFIG, 'revoke-all': { type: 'boolean', help: 'end every open window session and unspent link instead' } },
    positionals: 0,
    run: async (io, v) => (await import('./commands/ui.js')).runUi(io, { config: str(v.config), revokeAll: flag(v['revoke-all']) }),
  },
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
        return (await import('./commands/upstreamValue.js')).runUpstreamSet(io, {
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
      return (await import('./commands/upstream.js')).runUpstream(io, {
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
    run: async (io, v, pos) => (await import('./commands/tool.js')).runTool(io, { config: str(v.config), json: flag(v.json), rest: pos }),
  },
  secrets: {
    summary: "the secret store: list its names, or move config.json's plain-text secrets into it",
    usage: ['mws secrets [list] [--json]', 'mws secrets migrate [--json]'],
    options: { config: CONFIG, json: JSON_OUT },
    positionals: 1,
    run: async (io, v, pos) =>
      (await import('./commands/upstreamValue.js')).runSecrets(io, { config: str(v.config), action: pos[0], json: flag(v.json) }),
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
      return (await import('./commands/activity.js')).runActivity(io, {
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
      return (await import('./commands/agentToken.js')).runAgentToken(io, { config: str(v.config), agent: pos[1] });
    },
  },
};

export function version(): string {
  // Walks up to this package's package.json, so it works from the sources and from a build.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'mcp-working-set') return pkg.version ?? 'unknown';
    } catch {
      // not here; one folder up
    }
    dir = dirname(dir);
  }
  return 'unknown';
}

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  return [
    'Usage: mws <command> [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, s]) => `  ${name.padEnd(width)}  ${s.summary}`),
    '',
    "`mws <command> --help` shows a command's options. `mws --version` prints the version.",
    'Every command talks to the running instance when there is one, else works on the state files.',
  ].join('\n');
}

function commandHelp(name: string, s: Spec): string {
  const opts = Object.entries(s.options).map(([k, o]) => [`--${k}${o.arg ? ` ${o.arg}` : ''}`, o.help] as const);
  const width = Math.max(...opts.map(([k]) => k.length), 6);
  return [
    `mws ${name}: ${s.summary}`,
    '',
    'Usage:',
    ...s.usage.map((u) => `  ${u}`),
    '',
    'Options:',
    ...opts.map(([k, h]) => `  ${k.padEnd(width)}  ${h}`),
    `  ${'--help'.padEnd(width)}  this help`,
  ].join('\n');
}

/** Unknown flags get one sentence with the closest known flag, not a parser's message and the whole usage. */
function checkFlags(name: string, s: Spec, args: string[]): void {
  const known = Object.keys(s.options);
  for (const a of args) {
    if (a === '--') break;
    if (!a.startsWith('-') || a === '-') continue;
    const flagName = a.replace(/^--?/, '').split('=')[0]!;
    if (known.includes(flagName) || flagName === 'help' || flagName === 'h') continue;
    const near = closest(flagName, known);
    throw new MwsError(
      'usage',
      `mws ${name} has no option ${a.split('=')[0]}${near ? `; did you mean --${near}?` : '.'} (\`mws ${name} --help\` lists its options.)`,
    );
  }
}

export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined) {
      io.err(usage());
      return 2;
    }
    if (command === 'help' || command === '--help' || command === '-h') {
      const sub = rest[0] && COMMANDS[rest[0]];
      io.out(sub ? commandHelp(rest[0]!, sub) : usage());
      return 0;
    }
    if (command === '--version' || command === '-v' || command === 'version') {
      io.out(`mws ${version()}`);
      return 0;
    }
    const spec = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (!spec && command.startsWith('-')) {
      // A mistyped top-level flag (`mws --verison`): the closest of the flags mws takes before a command.
      const near = closest(command.replace(/^--?/, ''), ['version', 'help']);
      throw new MwsError(
        'usage',
        `There is no option ${command.split('=')[0]}${near ? `; did you mean --${near}?` : '.'} (\`mws --help\` lists the commands.)`,
      );
    }
    if (!spec) {
      const near = closest(command, Object.keys(COMMANDS));
      throw new MwsError(
        'usage',
        `There is no command "${command}"${near ? `; did you mean \`mws ${near}\`?` : '.'} (\`mws --help\` lists them.)`,
      );
    }
    if (rest.includes('--help') || rest.includes('-h')) {
      io.out(commandHelp(command, spec));
      return 0;
    }
    checkFlags(command, spec, rest);
    const options = Object.fromEntries(
      Object.entries(spec.options).map(([k, o]) => [k, { type: o.type, ...(o.multiple ? { multiple: true } : {}) }]),
    );
    const dashes = rest.indexOf('--');
    const after = dashes < 0 ? [] : rest.slice(dashes + 1);
    if (after.length && !spec.usage.some((u) => u.includes(' -- ')))
      throw new MwsError('usage', `mws ${command} takes nothing after \`--\` (got "${after.join(' ')}").`);
    let parsed: { values: Values; positionals: string[] };
    try {
      parsed = parseArgs({ args: rest, options, allowPositionals: true, strict: true }) as { values: Values; positionals: string[] };
    } catch (err) {
      // What is left after checkFlags: a value missing after a flag that takes one, or one given to a switch.
      const m = /Option '(-[-\w]+)[^']*' argument (?:missing|is ambiguous)/.exec((err as Error).message);
      if (m) throw new MwsError('usage', `${m[1]} needs a value. (\`mws ${command} --help\` lists the options.)`);
      const b = /Option '(--[\w-]+)' does not take an argument/.exec((err as Error).message);
      if (b) throw new MwsError('usage', `${b[1]} is a switch and takes no value. (\`mws ${command} --help\` lists the options.)`);
      throw new MwsError(
        'usage',
        `${(err as Error).message.split('\n')[0]!.replace(/\.$/, '')}. (\`mws ${command} --help\` lists the options.)`,
      );
    }
    // The words after `--` are the command an upstream runs, not names of this one.
    parsed.positionals = parsed.positionals.slice(0, parsed.positionals.length - after.length);
    if (parsed.positionals.length > spec.positionals) {
      const extra = parsed.positionals
        .slice(spec.positionals)
        .map((p) => `"${p}"`)
        .join(' ');
      throw new MwsError(
        'usage',
        spec.positionals === 0
          ? `mws ${command} takes no words after it (got ${extra}).`
          : `mws ${command} takes at most ${spec.positionals === 1 ? 'one name' : `${spec.positionals} names`} (also got ${extra}); quote a name with spaces.`,
      );
    }
    return await spec.run(io, parsed.values, parsed.positionals, after);
  } catch (err) {
    return reportError(io, err);
  }
}

function parseLogFormat(v: string | undefined): 'text' | 'json' | undefined {
  if (v === undefined || v === 'text' || v === 'json') return v;
  throw new MwsError('usage', `--log-format must be text or json (got "${v}").`);
}

function parsePort(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new MwsError('usage', `--port must be a whole number from 0 to 65535 (got "${v}").`);
  return n;
}
