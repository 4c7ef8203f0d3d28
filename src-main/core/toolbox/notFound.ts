// The one sentence for a tool name that is not in the toolbox, wherever it is told (the router, the
// meta-tools, the ControlApi): the name, why if known, the close matches, what to do next.

/** `why` and `next` are whole sentences; `where` narrows the name ("in the toolbox, and …"). */
export function noToolNamed(name: string, matches: readonly string[], opts: { why?: string; next?: string; where?: string } = {}): string {
  const parts = [`No tool named "${name}"${opts.where ?? ''}.`];
  if (opts.why) parts.push(opts.why);
  if (matches.length) parts.push(`Close matches: ${matches.join(', ')}.`);
  if (opts.next) parts.push(opts.next);
  return parts.join(' ');
}
