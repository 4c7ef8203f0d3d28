// The merged catalog of every upstream's tools under their exposed names: the one lookup the proxy,
// search and working sets share.
import type { Tool } from '@modelcontextprotocol/client';
import { exposedName, splitExposedName } from './names.js';
import { isMetaTool } from './reservedNames.js';
import { firstParagraph, slimSchema } from './slim.js';
import { cachedDefinitionHash } from './hash.js';

export type ToolEntry = {
  /** The name agents see and call. */
  name: string;
  /** The vendor: the name of the upstream that serves it (its key under "upstreams"). */
  vendor: string;
  /** The name the upstream knows the tool by. */
  remoteName: string;
  /** The upstream's tool object, untouched. */
  tool: Tool;
  readOnly: boolean;
  destructive: boolean;
  hash: string;
};

/**
 * Listings per upstream tool object, kept across toolboxes: a rebuilt toolbox reuses the slimmed
 * copies of every tool whose definition did not change, and forgets those of tools that left.
 */
const listedCache = new WeakMap<Tool, Map<string, Tool>>();

/** Per upstream, the names (as the upstream gives them) of the tools the user hid. */
export type HiddenTools = Readonly<Record<string, readonly string[]>>;

export class Toolbox {
  private readonly byName = new Map<string, ToolEntry>();
  /** Tools the user hid: in no listing, search or call, only in the upstream's tool list of the window. */
  private readonly hiddenEntries: ToolEntry[] = [];
  private readonly byShortName = new Map<string, ToolEntry[]>();
  readonly vendors: string[];
  private readonly vendorSet: Set<string>;

  constructor(
    catalogs: ReadonlyMap<string, readonly Tool[]>,
    readonly prefixNames: boolean,
    hidden: HiddenTools = {},
  ) {
    this.vendors = [...catalogs.keys()];
    this.vendorSet = new Set(this.vendors);
    for (const [vendor, tools] of catalogs) {
      const hide = Object.hasOwn(hidden, vendor) ? new Set(hidden[vendor]) : undefined;
      for (const tool of tools) {
        // Unprefixed upstream tools that share a meta-tool's name would be listed twice and never be
        // callable: they get the vendor prefix.
        const name = exposedName(vendor, tool.name, prefixNames || isMetaTool(tool.name));
        if (this.byName.has(name)) continue; // an upstream listing a name twice: the first wins
        const entry: ToolEntry = {
          name,
          vendor,
          remoteName: tool.name,
          tool,
          readOnly: tool.annotations?.readOnlyHint === true,
          // MCP's default for destructiveHint is true when the tool is not read-only.
          destructive: tool.annotations?.readOnlyHint !== true && tool.annotations?.destructiveHint !== false,
          hash: cachedDefinitionHash(tool),
        };
        if (hide?.has(tool.name)) {
          this.hiddenEntries.push(entry);
          continue;
        }
        this.byName.set(name, entry);
        const short = this.byShortName.get(tool.name) ?? [];
        short.push(entry);
        this.byShortName.set(tool.name, short);
      }
    }
  }

  get size(): number {
    return this.byName.size;
  }

  all(): IterableIterator<ToolEntry> {
    return this.byName.values();
  }

  /** The tools the user hid, which nothing else here answers for. */
  hidden(): readonly ToolEntry[] {
    return this.hiddenEntries;
  }

  get(name: string): ToolEntry | undefined {
    return this.byName.get(name);
  }

  /**
   * Exact exposed name, else the upstream's own name when only one upstream has it. A name whose prefix
   * is a vendor must match that vendor exactly (`nosuchvendor__x` or `fs__x` never reach another
   * vendor's `x`); an unknown prefix is part of the tool's own name (upstream names may hold `__`).
   */
  resolve(name: string): ToolEntry | undefined {
    const exact = this.byName.get(name);
    if (exact) return exact;
    const { vendor } = splitExposedName(name);
    if (vendor !== undefined && this.vendorSet.has(vendor)) return undefined;
    const short = this.byShortName.get(name);
    if (short && short.length === 1) return short[0];
    return undefined;
  }

  /** The tool as a working-set listing shows it: exposed name, slimmed schemas, optional short description. */
  listed(entry: ToolEntry, compactDescriptions: boolean): Tool {
    const key = `${compactDescriptions ? 'c' : 'f'}:${entry.name}`;
    let byKey = listedCache.get(entry.tool);
    if (!byKey) listedCache.set(entry.tool, (byKey = new Map()));
    const hit = byKey.get(key);
    if (hit) return hit;
    const t = entry.tool;
    const out: Tool = { ...t, name: entry.name, inputSchema: slimSchema(t.inputSchema) };
    if (t.outputSchema) out.outputSchema = slimSchema(t.outputSchema);
    if (compactDescriptions && t.description) out.description = firstParagraph(t.description);
    byKey.set(key, out);
    return out;
  }
}
