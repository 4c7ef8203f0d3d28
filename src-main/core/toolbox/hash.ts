// A tool's definition hash: what an approval was given for. A rewritten description or schema changes it.
import { createHash } from 'node:crypto';

/** JSON with object keys sorted: equal values give equal text whatever their key order. */
export function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/**
 * Per tool object: the catalog hands the same object back for a tool whose definition did not change
 * (it compares each tool's JSON), so an upstream change re-hashes only the tools that changed.
 */
const cache = new WeakMap<object, string>();

export function cachedDefinitionHash(tool: {
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}): string {
  let h = cache.get(tool);
  if (h === undefined) cache.set(tool, (h = definitionHash(tool)));
  return h;
}

export function definitionHash(tool: {
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}): string {
  const basis = stable({
    d: tool.description ?? '',
    i: tool.inputSchema ?? null,
    o: tool.outputSchema ?? null,
    a: tool.annotations ?? null,
  });
  return createHash('sha256').update(basis).digest('hex').slice(0, 16);
}
