// What a command of `mws` declares (its summary, usage, options, words and how it runs) and the
// options and readers the command tables share.
import { MwsError } from '../core/errors.js';
import type { Io } from './output.js';

/** `multiple`: the flag may be given more than once (`--header A=1 --header B=2`). */
export type Opt = { type: 'string' | 'boolean'; arg?: string; help: string; multiple?: boolean };
export type Values = Record<string, string | boolean | string[] | undefined>;
export type Spec = {
  summary: string;
  usage: string[];
  options: Record<string, Opt>;
  /** How many words may follow the command. */
  positionals: number;
  /** `after`: the words after `--`, kept apart from `pos` (a command an upstream runs, with its own flags). */
  run: (io: Io, v: Values, pos: string[], after: string[]) => Promise<number>;
};

export const CONFIG: Opt = {
  type: 'string',
  arg: 'FILE',
  help: 'the config file (else $MWS_CONFIG, else ~/.config/mcp-working-set/config.json)',
};
export const JSON_OUT: Opt = { type: 'boolean', help: 'print JSON for scripts instead of a table' };
export const AGENT: Opt = { type: 'string', arg: 'ID', help: 'the agent (default: default)' };
/** report, cycle and sweep cover every agent unless one is named. */
export const ONE_AGENT: Opt = { type: 'string', arg: 'ID', help: 'only this agent (default: every agent)' };
export const DEMO: Opt = { type: 'boolean', help: 'with no upstream configured, use the built-in demo toolbox' };

export const str = (v: Values[string]) => (typeof v === 'string' ? v : undefined);
export const flag = (v: Values[string]) => v === true;
export const list = (v: Values[string]) => (Array.isArray(v) ? v : typeof v === 'string' ? [v] : []);
export const common = (v: Values) => ({ config: str(v.config), demo: flag(v.demo), agent: str(v.agent), json: flag(v.json) });

export function parseLogFormat(v: string | undefined): 'text' | 'json' | undefined {
  if (v === undefined || v === 'text' || v === 'json') return v;
  throw new MwsError('usage', `--log-format must be text or json (got "${v}").`);
}

export function parsePort(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new MwsError('usage', `--port must be a whole number from 0 to 65535 (got "${v}").`);
  return n;
}
