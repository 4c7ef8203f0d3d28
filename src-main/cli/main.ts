// `mws`: parses the command line and runs one command. Each command lives in its own file.
import { parseArgs } from 'node:util';
import { MwsError } from '../core/errors.js';
import { processIo, reportError, type Io } from './output.js';
import { runInit } from './commands/init.js';
import { runServe } from './commands/serve.js';
import { runSearch } from './commands/search.js';
import { runEval } from './commands/eval.js';
import { runApprove, runDemote, runPromote, runSweep } from './commands/workingSet.js';
import { runReport } from './commands/report.js';
import { runAgentToken } from './commands/agentToken.js';
import { cliConfig } from './config.js';
import { withControl } from './instance.js';

const USAGE = `Usage: mws <command> [options]

Commands:
  serve [--config FILE] [--port N] [--demo]   run the proxy in the foreground
  init [--config FILE]                        write a starting config (never overwrites)
  search "<query>" [--agent ID] [--limit N] [--json] [--demo] [--explain]
                                              the exact reply search_tools gives a model;
                                              --explain: which words matched which fields
  eval --catalog FILE --gold FILE [--json] [--engine bm25f|minisearch]
       [--train FILE | --split 0.5 [--seed N] [--by query|tool]]
                                              offline search quality on any catalog, with and
                                              without learning from search→call pairs
  promote [--dry-run] [--agent A] [--json]    usage promotion and sweep: the decision table, applied
  promote TOOL --agent A                      put a tool in an agent's working set
  demote TOOL --agent A                       take it out (it stays reachable through search)
  sweep --dry-run --now <ISO> [--agent A] [--json]
                                              what the sweep would demote at that time
  report [--agent A] [--json]                 listed tools, context cost, calls, searches, history
  approve [TOOL] [--agent A] [--deny]         allow or deny a tool; with no tool, list waiting calls
  ui [--revoke-all]                           a new one-time link to the running instance's window;
                                              --revoke-all ends every open window session instead
  agent token A                               a new bearer token for agent A (its endpoint then requires it)

Every command talks to the running instance when there is one, else works on the state files.

Config: --config, else $MWS_CONFIG, else ~/.config/mcp-working-set/config.json.`;

export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve': {
        const { values } = parseArgs({ args: rest, options: { config: { type: 'string' }, port: { type: 'string' }, demo: { type: 'boolean' } } });
        return await runServe(io, { config: values.config, port: parsePort(values.port), demo: values.demo === true });
      }
      case 'search': {
        const { values, positionals } = parseArgs({
          args: rest,
          allowPositionals: true,
          options: { config: { type: 'string' }, agent: { type: 'string' }, json: { type: 'boolean' }, limit: { type: 'string' }, demo: { type: 'boolean' }, explain: { type: 'boolean' } },
        });
        const limit = values.limit === undefined ? undefined : Number(values.limit);
        if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 50)) throw new MwsError('usage', `--limit must be a whole number from 1 to 50 (got "${values.limit}").`);
        return await runSearch(io, { config: values.config, demo: values.demo === true, query: positionals.join(' ') || undefined, agent: values.agent, json: values.json === true, limit, explain: values.explain === true });
      }
      case 'eval': {
        const { values } = parseArgs({
          args: rest,
          options: { catalog: { type: 'string' }, gold: { type: 'string' }, json: { type: 'boolean' }, engine: { type: 'string' }, train: { type: 'string' }, split: { type: 'string' }, seed: { type: 'string' }, by: { type: 'string' } },
        });
        return await runEval(io, { catalog: values.catalog, gold: values.gold, json: values.json === true, engine: values.engine, train: values.train, split: values.split, seed: values.seed, by: values.by });
      }
      case 'promote':
      case 'demote':
      case 'sweep':
      case 'approve':
      case 'report': {
        const { values, positionals } = parseArgs({
          args: rest,
          allowPositionals: true,
          options: {
            config: { type: 'string' }, agent: { type: 'string' }, json: { type: 'boolean' }, 'dry-run': { type: 'boolean' },
            now: { type: 'string' }, deny: { type: 'boolean' }, demo: { type: 'boolean' },
          },
        });
        if (positionals.length > 1) throw new MwsError('usage', `mws ${command} takes at most one tool name (got ${positionals.length}).`);
        const common = { config: values.config, demo: values.demo === true, agent: values.agent, json: values.json === true };
        const tool = positionals[0];
        if (command === 'promote') return await runPromote(io, { ...common, tool, dryRun: values['dry-run'] === true });
        if (command === 'demote') return await runDemote(io, { ...common, tool });
        if (command === 'sweep') return await runSweep(io, { ...common, dryRun: values['dry-run'] === true, now: values.now });
        if (command === 'approve') return await runApprove(io, { ...common, tool, deny: values.deny === true });
        return await runReport(io, common);
      }
      case 'ui': {
        const { values } = parseArgs({ args: rest, options: { config: { type: 'string' }, 'revoke-all': { type: 'boolean' } } });
        const { config } = await cliConfig({ config: values.config });
        return await withControl(config, async ({ api, source }) => {
          if (source !== 'running instance') throw new MwsError('usage', 'No instance is running: start one with `mws serve` (it prints the link).');
          if (values['revoke-all']) {
            const { ended } = await api.uiRevokeAll({});
            io.out(`Ended ${ended} window session${ended === 1 ? '' : 's'}; unspent links no longer work. Run \`mws ui\` for a new link.`);
            return 0;
          }
          io.out((await api.uiLink({})).url);
          return 0;
        });
      }
      case 'agent': {
        const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { config: { type: 'string' } } });
        if (positionals[0] !== 'token') throw new MwsError('usage', 'Usage: mws agent token <agent-id>');
        return await runAgentToken(io, { config: values.config, agent: positionals[1] });
      }
      case 'init': {
        const { values } = parseArgs({ args: rest, options: { config: { type: 'string' } } });
        return await runInit(io, { config: values.config });
      }
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.out(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new MwsError('usage', `Unknown command "${command}".\n\n${USAGE}`);
    }
  } catch (err) {
    if (err instanceof TypeError && (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      return reportError(io, new MwsError('usage', `${err.message}.\n\n${USAGE}`));
    }
    return reportError(io, err);
  }
}

function parsePort(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new MwsError('usage', `--port must be a whole number from 0 to 65535 (got "${v}").`);
  return n;
}
