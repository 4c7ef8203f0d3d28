// Errors in words a person understands, shared by the window and the CLI. Pure: no Node, no DOM.
// The core's errors name a config field ("agents[0].cap") for the file's sake; a form wants to know
// which of its fields is wrong and what to type instead.

export type FieldError = { field: string | null; text: string };

/**
 * An error as the ControlApi envelope carries it: a sentence, and data naming the field (`path`), what
 * was wrong with it (`reason`) and the value given (`got`, as JSON). Config refusals and refused
 * control arguments both carry these.
 */
export type ErrorLike = { message: string; data?: Record<string, unknown> };

/**
 * The bounds the schema set for the field, as a config refusal carries them (core/config/fieldRules.ts):
 * the sentences below say them from there, so they change with the schema and are never restated here.
 */
type Rules = { min?: number; max?: number; maxLength?: number };

const range = (r: Rules) =>
  r.min !== undefined && r.max !== undefined ? `from ${r.min} to ${r.max}` : r.min !== undefined ? `of ${r.min} or more` : '';
const upTo = (r: Rules, unit = '') => (r.maxLength !== undefined ? `up to ${r.maxLength}${unit}` : '');
const not = (got: string | undefined) => (got === undefined ? '' : ` (not ${got})`);

/** What each field accepts, by the last part of its config path; undefined: the generic sentence (a bound is missing). */
const WORDS: Record<string, (got: string | undefined, reason: string, r: Rules) => string | undefined> = {
  id: (_g, _r, r) =>
    `An id may use lowercase letters, digits and dashes${r.maxLength ? ` (${upTo(r)})` : ''}, and starts with a letter or digit — for example "codex".`,
  name: (_g, _r, r) => `Give a name${r.maxLength ? `, ${upTo(r, ' characters')}` : ''}.`,
  cap: (got, _r, r) =>
    got === undefined || got === '""' || got === 'null'
      ? `Give the cap: how many tools the agent lists, a whole number${range(r) ? ` ${range(r)}` : ''}.`
      : range(r)
        ? `The cap is how many tools the agent lists: a whole number ${range(r)} (not ${got}).`
        : undefined,
  idleWindowDays: (got, _r, r) =>
    range(r) ? `The idle window is a number of days ${range(r)}${not(got)}: a tool unused that long leaves the list.` : undefined,
  approvals: () => 'Choose how this agent asks: ask on first call, allow all, or read-only tools only.',
  url: (_g, reason) =>
    /empty/.test(reason)
      ? "Give the server's URL, for example http://127.0.0.1:4483/mcp."
      : 'The URL must start with http:// or https://, for example https://example.com/mcp.',
  command: () => 'Give the command that starts the server, for example npx or a full path to the program.',
  args: () => 'Arguments are words separated by spaces.',
  headers: () => 'Write one header per line, as Name: value.',
  port: (got, _r, r) => (range(r) ? `The port is a whole number ${range(r)}${not(got)}; 0 picks a free one.` : undefined),
  minSessions: (got, _r, r) => (range(r) ? `Sessions is a whole number ${range(r)}${not(got)}.` : undefined),
  minCalls: (got, _r, r) => (range(r) ? `Calls is a whole number ${range(r)}${not(got)}.` : undefined),
  windowDays: (got, _r, r) => (range(r) ? `The promotion window is a number of days ${range(r)}${not(got)}.` : undefined),
  pinDecayDays: (got, _r, r) => (range(r) ? `Pin decay is a number of days ${range(r)}${not(got)}.` : undefined),
  vendor: (_g, _r, r) =>
    `A name may use lowercase letters, digits and dashes${r.maxLength ? ` (${upTo(r)})` : ''}, for example "mail". It prefixes the server's tools: mail__search.`,
};

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The form field a core error concerns, and a sentence for it, read from the error's data. */
export function fieldError(err: ErrorLike): FieldError {
  const { path, reason, got, min, max, maxLength } = err.data ?? {};
  if (typeof path !== 'string' || typeof reason !== 'string') return { field: null, text: err.message };
  const field = path
    .split('.')
    .pop()!
    .replace(/\[\d+\]$/, '');
  const rules: Rules = { min: num(min), max: num(max), maxLength: num(maxLength) };
  const text = WORDS[field]?.(typeof got === 'string' ? got : undefined, reason, rules);
  return { field, text: text ?? `This value is not accepted: it ${reason}.` };
}

/** An upstream that failed to start or answer: the cause and what to do next. */
export function upstreamFailure(error: string, target?: { url?: string; command?: string }): string {
  // The status view appends what a stdio server last wrote to stderr: kept, as it often says why.
  const tail = /\.? Its stderr ended with: [\s\S]*$/.exec(error);
  if (tail) return `${upstreamFailure(error.slice(0, tail.index), target)} ${tail[0].replace(/^\.? /, '')}`;
  const enoent = /spawn (\S+) ENOENT/.exec(error);
  if (enoent) return `The command \`${enoent[1]}\` was not found. Check the spelling, or give its full path.`;
  if (/spawn (\S+) EACCES/.test(error))
    return `The command \`${/spawn (\S+) EACCES/.exec(error)![1]}\` is not allowed to run. Make it executable (chmod +x) or give another path.`;
  if (/ECONNREFUSED|fetch failed|connect ECONN|socket hang up/i.test(error))
    return `Nothing answers at ${target?.url ?? 'that address'}. Check that the server is running and that the host and port are right.`;
  if (/ENOTFOUND|EAI_AGAIN/.test(error)) return `The host in ${target?.url ?? 'the URL'} is not known. Check its spelling.`;
  if (/signs in with OAuth/.test(error)) return error;
  if (/\b(401|403)\b|unauthori[sz]ed|forbidden/i.test(error))
    return 'The server refused our credentials. Check the Authorization header (or the token it needs).';
  if (/\b404\b/.test(error)) return 'There is no MCP server at that path. MCP servers usually answer at /mcp; check the URL.';
  if (/\b405\b/.test(error)) return 'The server does not accept MCP requests at that path. Check the URL (usually it ends in /mcp).';
  if (/timed? ?out|timeout/i.test(error))
    return 'The server did not answer in time. Check that it is running and not stuck, then test again.';
  if (/exited|closed|EPIPE/i.test(error))
    return `The server${target?.command ? ` \`${target.command}\`` : ''} started but closed before answering. Run the same command in a terminal to see its error.`;
  // A sentence that already says what to do (sign in, wait for the start, give a value) is not a settings problem.
  if (/sign in|signed out|starting|still starting|needs a value|mws upstream set|mws login/i.test(error)) return error;
  return `${error.replace(/\.$/, '')}. Check the settings and test again.`;
}

/** " (1–500)" for a label, from the bounds the core's schema sets; nothing while they are unknown. */
export function rangeText(b: { min?: number; max?: number } | undefined): string {
  return b?.min !== undefined && b.max !== undefined ? ` (${b.min}–${b.max})` : '';
}

/** A refusal's data completed with the field's bounds when the check that refused did not carry them. */
export function withBounds(err: ErrorLike, bounds: Record<string, { min?: number; max?: number }> | undefined) {
  const field = typeof err.data?.path === 'string' ? err.data.path.split('.').pop() : undefined;
  const b = field ? bounds?.[field] : undefined;
  if (!b || err.data?.min !== undefined || err.data?.max !== undefined) return err;
  return { message: err.message, data: { ...err.data, ...b } };
}
