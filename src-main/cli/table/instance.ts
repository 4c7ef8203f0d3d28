// The commands that set up and run an instance: its status, serve, doctor, moving its state, a first
// config, and importing the servers other clients use.
import { CONFIG, JSON_OUT, DEMO, str, flag, parsePort, parseLogFormat, type Spec } from '../spec.js';

export const INSTANCE: Record<string, Spec> = {
  status: {
    summary: 'the running instance: its URL, each agent and its list, upstreams up and down',
    usage: ['mws status [--json]'],
    options: { config: CONFIG, json: JSON_OUT },
    positionals: 0,
    run: async (io, v) => (await import('../commands/status.js')).runStatus(io, { config: str(v.config), json: flag(v.json) }),
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
      (await import('../commands/serve.js')).runServe(io, {
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
    run: async (io, v) => (await import('../commands/doctor.js')).runDoctor(io, { config: str(v.config), json: flag(v.json) }),
  },
  'migrate-state': {
    summary: 'move the state folder and config into an empty PostgreSQL database, for replicas to share',
    usage: ['mws migrate-state --to postgres://USER:PASSWORD@HOST:PORT/DATABASE [--config FILE]'],
    options: { config: CONFIG, to: { type: 'string', arg: 'URL', help: 'the empty PostgreSQL database (docs/guide/team.md)' } },
    positionals: 0,
    run: async (io, v) => (await import('../commands/migrateState.js')).runMigrateState(io, { config: str(v.config), to: str(v.to) }),
  },
  init: {
    summary: 'write a starting config (never overwrites one)',
    usage: ['mws init [--config FILE]'],
    options: { config: CONFIG },
    positionals: 0,
    run: async (io, v) => (await import('../commands/init.js')).runInit(io, { config: str(v.config) }),
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
      (await import('../commands/import.js')).runImport(io, {
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
};
