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

/** What each field accepts, by the last part of its config path. */
const WORDS: Record<string, (got: string | undefined, reason: string) => string> = {
  id: () => 'An id may use lowercase letters, digits and dashes (up to 32), and starts with a letter or digit — for example "codex".',
  name: () => 'Give a name, up to 80 characters.',
  cap: (got) => (got === undefined || got === '""' || got === 'null' ? 'Give the cap: how many tools the agent lists, a whole number from 1 to 500.' : `The cap is how many tools the agent lists: a whole number from 1 to 500 (not ${got}).`),
  idleWindowDays: (got) => `The idle window is a number of days from 1 to 3650${got === undefined ? '' : ` (not ${got})`}: a tool unused that long leaves the list.`,
  approvals: () => 'Choose how this agent asks: ask on first call, allow all, or read-only tools only.',
  url: (_g, reason) => (/empty/.test(reason) ? 'Give the server\'s URL, for example http://127.0.0.1:4483/mcp.' : 'The URL must start with http:// or https://, for example https://example.com/mcp.'),
  command: () => 'Give the command that starts the server, for example npx or a full path to the program.',
  args: () => 'Arguments are words separated by spaces.',
  headers: () => 'Write one header per line, as Name: value.',
  port: (got) => `The port is a whole number from 0 to 65535${got === undefined ? '' : ` (not ${got})`}; 0 picks a free one.`,
  minSessions: () => 'Sessions is a whole number, 1 or more.',
  minCalls: () => 'Calls is a whole number, 1 or more.',
  windowDays: () => 'The promotion window is a number of days from 1 to 3650.',
  pinDecayDays: () => 'Pin decay is a number of days from 1 to 3650.',
  vendor: () => 'A name may use lowercase letters, digits and dashes (up to 32), for example "mail". It prefixes the server\'s tools: mail__search.',
};

/** The form field a core error concerns, and a sentence for it, read from the error's data. */
export function fieldError(err: ErrorLike): FieldError {
  const { path, reason, got } = err.data ?? {};
  if (typeof path !== 'string' || typeof reason !== 'string') return { field: null, text: err.message };
  const field = path.split('.').pop()!.replace(/\[\d+\]$/, '');
  const words = WORDS[field];
  return { field, text: words ? words(typeof got === 'string' ? got : undefined, reason) : `This value is not accepted: it ${reason}.` };
}

/** An upstream that failed to start or answer: the cause and what to do next. */
export function upstreamFailure(error: string, target?: { url?: string; command?: string }): string {
  // The status view appends what a stdio server last wrote to stderr: kept, as it often says why.
  const tail = /\.? Its stderr ended with: [\s\S]*$/.exec(error);
  if (tail) return `${upstreamFailure(error.slice(0, tail.index), target)} ${tail[0].replace(/^\.? /, '')}`;
  const enoent = /spawn (\S+) ENOENT/.exec(error);
  if (enoent) return `The command \`${enoent[1]}\` was not found. Check the spelling, or give its full path.`;
  if (/spawn (\S+) EACCES/.test(error)) return `The command \`${/spawn (\S+) EACCES/.exec(error)![1]}\` is not allowed to run. Make it executable (chmod +x) or give another path.`;
  if (/ECONNREFUSED|fetch failed|connect ECONN|socket hang up/i.test(error)) return `Nothing answers at ${target?.url ?? 'that address'}. Check that the server is running and that the host and port are right.`;
  if (/ENOTFOUND|EAI_AGAIN/.test(error)) return `The host in ${target?.url ?? 'the URL'} is not known. Check its spelling.`;
  if (/\b(401|403)\b|unauthori[sz]ed|forbidden/i.test(error)) return 'The server refused our credentials. Check the Authorization header (or the token it needs).';
  if (/\b404\b/.test(error)) return 'There is no MCP server at that path. MCP servers usually answer at /mcp; check the URL.';
  if (/\b405\b/.test(error)) return 'The server does not accept MCP requests at that path. Check the URL (usually it ends in /mcp).';
  if (/timed? ?out|timeout/i.test(error)) return 'The server did not answer in time. Check that it is running and not stuck, then test again.';
  if (/exited|closed|EPIPE/i.test(error)) return `The server${target?.command ? ` \`${target.command}\`` : ''} started but closed before answering. Run the same command in a terminal to see its error.`;
  return `${error.replace(/\.$/, '')}. Check the settings and test again.`;
}
