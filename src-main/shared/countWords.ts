// The words every tool and upstream count is shown with — `mws`, the tray and the window — so one
// quantity reads the same everywhere (a count that sometimes includes the meta-tools and sometimes
// not reads as two different toolboxes). No Node imports: the renderer uses it.
//
// The quantities, and the one phrase each has:
// - the toolbox: every tool of every upstream that is on, without the meta-tools: "84 tools from 2 upstreams";
// - the meta-tools, always listed beside it and never part of it: "4 meta-tools";
// - an agent's list: the tools it lists now, out of its cap: "2 of 20 tools listed"; what it lists in all
//   adds the meta-tools: "2 tools + 4 meta-tools";
// - upstream health: those up out of those on, the ones turned off apart: "1 of 1 upstream up · 1 off".

/**
 * 12345 → "12,345". Not toLocaleString('en'): the first use of a locale loads ICU's data, ~25–35 ms of a
 * start (every `mws` command, and `mws serve` before its port is open).
 */
export function thousands(n: number): string {
  const [whole = '', fraction] = String(n).split('.');
  return whole.replace(/\B(?=(\d{3})+$)/g, ',') + (fraction === undefined ? '' : `.${fraction}`);
}

/** search_tools, call_tool, promote, demote: listed to every agent, counted apart from the toolbox. */
export const META_TOOL_COUNT = 4;
export const META_TOOLS_WORDS = `${META_TOOL_COUNT} meta-tools`;

export type CountedUpstream = { vendor: string; status: string; toolCount: number };

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${thousands(n)} ${n === 1 ? one : many}`;
}

/** Upstreams whose tools are in the toolbox: on, and with at least one tool (live or last-good). */
export function servingUpstreams(upstreams: readonly CountedUpstream[]): number {
  return upstreams.filter((u) => u.status !== 'off' && u.toolCount > 0).length;
}

/** "84 tools from 2 upstreams": the toolbox, without the meta-tools. */
export function toolboxWords(toolboxSize: number, upstreams: readonly CountedUpstream[]): string {
  if (toolboxSize === 0) return 'no tools';
  return `${plural(toolboxSize, 'tool')} from ${plural(servingUpstreams(upstreams), 'upstream')}`;
}

/** "84 tools from 2 upstreams + 4 meta-tools": what listing everything would list. */
export function wholeListingWords(toolboxSize: number, upstreams: readonly CountedUpstream[]): string {
  return `${toolboxWords(toolboxSize, upstreams)} + ${META_TOOLS_WORDS}`;
}

/**
 * "2 of 2 upstreams up", "1 of 1 upstream up · 1 off", "0 of 1 upstream up (down: fs)", "3 upstreams off": those up out of
 * those on. One the user turned off is neither up nor down. `down` names the ones to look at (the tray).
 */
export function upstreamHealthWords(upstreams: readonly CountedUpstream[], down: readonly string[] = []): string {
  const off = upstreams.filter((u) => u.status === 'off').length;
  const on = upstreams.length - off;
  if (upstreams.length === 0) return 'no upstream yet';
  if (on === 0) return `${plural(off, 'upstream')} off`;
  const up = upstreams.filter((u) => u.status === 'up').length;
  return `${up} of ${plural(on, 'upstream')} up${down.length ? ` (down: ${down.join(', ')})` : ''}${off ? ` · ${off} off` : ''}`;
}

/** "2 of 20 tools listed": an agent's list now (tools whose upstream is off or gone are not in it), out of its cap. */
export function listedWords(size: number, cap: number): string {
  return `${size} of ${plural(cap, 'tool')} listed`;
}

/** "2 tools + 4 meta-tools": everything an agent's tools/list answers. */
export function listingWords(size: number): string {
  return `${plural(size, 'tool')} + ${META_TOOLS_WORDS}`;
}

/** "1 more in the working set is not listed now (its upstream is off or gone)", or '' when `more` is 0. */
export function unlistedWords(more: number): string {
  return more > 0
    ? `${more} more in the working set ${more === 1 ? 'is' : 'are'} not listed now (${more === 1 ? 'its upstream is' : 'their upstreams are'} off or gone)`
    : '';
}
