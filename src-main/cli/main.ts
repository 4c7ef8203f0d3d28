// `mws`: parses the command line and runs one command. Each command lives in its own file.
import { parseArgs } from 'node:util';
import { MwsError } from '../core/errors.js';
import { processIo, reportError, type Io } from './output.js';
import { runInit } from './commands/init.js';
import { runServe } from './commands/serve.js';

const USAGE = `Usage: mws <command> [options]

Commands:
  serve [--config FILE] [--port N] [--demo]   run the proxy in the foreground
  init [--config FILE]                        write a starting config (never overwrites)

Config: --config, else $MWS_CONFIG, else ~/.config/mcp-working-set/config.json.`;

export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve': {
        const { values } = parseArgs({ args: rest, options: { config: { type: 'string' }, port: { type: 'string' }, demo: { type: 'boolean' } } });
        return await runServe(io, { config: values.config, port: parsePort(values.port), demo: values.demo === true });
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
