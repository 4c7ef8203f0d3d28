// Checks call arguments against the tool's inputSchema before anything reaches the upstream, and
// words the problems so a model can fix its call.
import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { ToolEntry } from '../toolbox/toolbox.js';

// ajv and ajv-formats (CommonJS) are required by the first check, not imported with this module:
// evaluating them cost ~20–40 ms before `mws serve` listened, and the first call can pay it once.
const requireCjs = createRequire(import.meta.url);

/**
 * Compiled validators kept at once. Each costs tens of kB; a 20,000-tool toolbox called tool by tool
 * would otherwise keep one per tool for the life of the process. The least recently used is dropped
 * (and recompiled if called again: about a millisecond).
 */
export const VALIDATOR_CACHE_SIZE = 500;

function newAjv(): Ajv {
  const { Ajv } = requireCjs('ajv') as typeof import('ajv');
  const formats = requireCjs('ajv-formats') as { default?: unknown };
  // ajv-formats ships CommonJS: its function is the module itself, or its `default`.
  const addFormats = (formats.default ?? formats) as (a: Ajv) => void;
  const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false });
  addFormats(ajv);
  return ajv;
}

export class ArgumentValidator {
  /**
   * Made at the first check, and made anew after 2 × the bound compiles: ajv keeps every compiled
   * function's code and names in its scope (`removeSchema` does not free them, and each validator
   * holds the whole scope), so one instance grows with every distinct schema ever compiled — 73 MB
   * after 10,000 at 5,000 tools. A fresh instance with an empty cache lets the old one go whole.
   */
  private ajv: Ajv | undefined;
  private compiledHere = 0;
  /** Insertion order is recency order: a hit is moved to the end, the first is the one to evict. */
  private readonly cache = new Map<string, { fn: ValidateFunction | null; schema: object }>();

  constructor(private readonly maxSize = VALIDATOR_CACHE_SIZE) {}

  /** Compiles made by the ajv instance in use (at most 2 × the bound). */
  get compiledByCurrent(): number {
    return this.compiledHere;
  }

  /** Validators held now (at most the bound). */
  get size(): number {
    return this.cache.size;
  }

  /** Undefined when the arguments fit, else a sentence listing every problem. */
  check(entry: ToolEntry, args: Record<string, unknown> | undefined): string | undefined {
    const validate = this.compile(entry);
    if (!validate) return undefined; // a schema ajv cannot compile: the upstream is the judge
    if (validate(args ?? {})) return undefined;
    const problems = (validate.errors ?? []).slice(0, 8).map(describe);
    return `The arguments for ${entry.name} do not match its input schema: ${problems.join('; ')}. Fix them and call again (search_tools "${entry.name}" shows the schema).`;
  }

  private compile(entry: ToolEntry): ValidateFunction | null {
    const key = `${entry.name}:${entry.hash}`;
    const hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit.fn;
    }
    const schema = entry.tool.inputSchema as object;
    if (!this.ajv || this.compiledHere >= 2 * this.maxSize) {
      this.ajv = newAjv();
      this.compiledHere = 0;
      this.cache.clear(); // their functions hold the old instance's scope: let it all go
    }
    this.compiledHere++;
    let fn: ValidateFunction | null;
    try {
      fn = this.ajv.compile(schema);
    } catch {
      fn = null;
    }
    this.cache.set(key, { fn, schema });
    if (this.cache.size > this.maxSize) {
      const [oldKey, old] = this.cache.entries().next().value!;
      this.cache.delete(oldKey);
      // ajv keeps its own cache of compiled schemas by schema object: drop it there too.
      this.ajv.removeSchema(old.schema);
    }
    return fn;
  }
}

function describe(e: ErrorObject): string {
  const where = e.instancePath ? `"${e.instancePath.slice(1).replace(/\//g, '.')}"` : 'the arguments';
  switch (e.keyword) {
    case 'required':
      return `"${(e.params as { missingProperty: string }).missingProperty}" is required`;
    case 'additionalProperties':
      return `"${(e.params as { additionalProperty: string }).additionalProperty}" is not a parameter of this tool`;
    case 'enum':
      return `${where} must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `${where} ${e.message ?? 'is invalid'}`;
  }
}
