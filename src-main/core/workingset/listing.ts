// The listing rule, the heart of the product, as one pure function: what an agent lists and in what
// order. The router shows it (after the meta-tools); promote and demote answer its size.
import type { Toolbox, ToolEntry } from '../toolbox/toolbox.js';
import type { ToolState } from './types.js';
import { byCodeUnit } from '../../shared/codeUnitOrder.js';

/**
 * The names an agent lists before meeting the toolbox, in an order that only grows at the end: members
 * * by when they came in (ties: config pin order, then name), then fixed pins not yet members, in config order. A
 * model's prompt cache keeps the listing up to the first change, so a promotion (or a pin being marked)
 * never moves the tools before it. (Pins used to come first: a new pin reshuffled the whole list.)
 */
export function listingOrder(fixed: Iterable<string>, tools: Record<string, ToolState>): string[] {
  const pins = [...fixed];
  // A Map: with up to 500 pins an array lookup per member was the report's slowest step.
  const pinAt = new Map(pins.map((t, i) => [t, i]));
  const rank = (t: string) => pinAt.get(t) ?? Infinity;
  const members = Object.entries(tools)
    // Pins that came in together keep the config's order; ties after that by code unit.
    .sort((a, b) => a[1].promotedAt - b[1].promotedAt || rank(a[0]) - rank(b[0]) || byCodeUnit(a[0], b[0]))
    .map(([t]) => t);
  const listed = new Set(members);
  return [...members, ...pins.filter((t) => !listed.has(t))];
}

type ListingToolbox = Pick<Toolbox, 'get' | 'resolve'>;

/** The tool a listed name stands for: itself, or the one tool an upstream's own name (`read_graph`) names. */
const meet = (toolbox: ListingToolbox, name: string): ToolEntry | undefined => toolbox.get(name) ?? toolbox.resolve(name);

/**
 * What an agent lists: its names in listing order, each met with the toolbox once. A name the toolbox
 * does not know is left out (its upstream is down or dropped it); a pin by an upstream's own name
 * (`read_graph`) lists the one tool it names (`memory__read_graph`).
 */
export function decideListing(fixed: Iterable<string>, tools: Record<string, ToolState>, toolbox: ListingToolbox): ToolEntry[] {
  return meetNames(listingOrder(fixed, tools), toolbox);
}

/** Names in listing order met with the toolbox: what decideListing does once the order is known. */
export function meetNames(names: Iterable<string>, toolbox: ListingToolbox): ToolEntry[] {
  const out: ToolEntry[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    const e = meet(toolbox, name);
    if (e && !seen.has(e.name)) {
      seen.add(e.name);
      out.push(e);
    }
  }
  return out;
}

/**
 * How many tools decideListing lists, without its order: the status's and every promote's answer, for
 * each agent. Sorting the members only to count them was most of `status` at 100 agents.
 */
export function countListed(fixed: Iterable<string>, tools: Record<string, ToolState>, toolbox: ListingToolbox): number {
  const seen = new Set<string>();
  for (const name of [...Object.keys(tools), ...fixed]) {
    const e = meet(toolbox, name);
    if (e) seen.add(e.name);
  }
  return seen.size;
}
