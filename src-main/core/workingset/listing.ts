// The listing rule, the heart of the product, as one pure function: what an agent lists and in what
// order. The router shows it (after the meta-tools); promote and demote answer its size.
import type { Toolbox, ToolEntry } from '../toolbox/toolbox.js';
import type { ToolState } from './types.js';

/** The names an agent lists before meeting the toolbox: fixed pins first, then pinned members, then by promotion time. */
export function listingOrder(fixed: Iterable<string>, tools: Record<string, ToolState>): string[] {
  const pins = [...fixed];
  // A Set: with up to 500 pins an array lookup per member was the report's slowest step.
  const pinned = new Set(pins);
  const rest = Object.entries(tools)
    .filter(([t]) => !pinned.has(t))
    .sort((a, b) => Number(Boolean(b[1].pinned)) - Number(Boolean(a[1].pinned)) || a[1].promotedAt - b[1].promotedAt || a[0].localeCompare(b[0]))
    .map(([t]) => t);
  return [...pins, ...rest];
}

/**
 * What an agent lists: its names in listing order, each met with the toolbox once. A name the toolbox
 * does not know is left out (its upstream is down or dropped it); a pin by an upstream's own name
 * (`read_graph`) lists the one tool it names (`memory__read_graph`).
 */
export function decideListing(fixed: Iterable<string>, tools: Record<string, ToolState>, toolbox: Pick<Toolbox, 'get' | 'resolve'>): ToolEntry[] {
  const out: ToolEntry[] = [];
  const seen = new Set<string>();
  for (const name of listingOrder(fixed, tools)) {
    const e = toolbox.get(name) ?? toolbox.resolve(name);
    if (e && !seen.has(e.name)) {
      seen.add(e.name);
      out.push(e);
    }
  }
  return out;
}
