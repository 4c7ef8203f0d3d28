// `mws`: parses the command line and runs one command. Each command lives in its own file and is
// imported only when it runs, so `mws --help` or a typo never loads the core.
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MwsError } from '../core/errors.js';
import { processIo, reportError, type Io } from './output.js';
import { closest } from './suggest.js';
import type { Spec, Values } from './spec.js';
import { INSTANCE } from './table/instance.js';
import { SEARCH } from './table/search.js';
import { SETS } from './table/sets.js';
import { SIGN_IN } from './table/signIn.js';
import { UPSTREAMS } from './table/upstreams.js';

/** Every command, in the order `mws --help` lists them. */
const COMMANDS: Record<string, Spec> = { ...INSTANCE, ...SEARCH, ...SETS, ...SIGN_IN, ...UPSTREAMS };

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
