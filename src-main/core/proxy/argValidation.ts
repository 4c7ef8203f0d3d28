// Checks call arguments against the tool's inputSchema before anything reaches the upstream, and
// words the problems so a model can fix its call.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { ToolEntry } from '../toolbox/toolbox.js';
import { LRUCache } from 'lru-cache';

// ajv and ajv-formats (CommonJS) are required by the first check, not imported with this module:
// evaluating them would add to the time before `mws serve` listens, and the first call can pay it once.
const requireCjs = createRequire(import.meta.url);

/**
 * Compiled validators kept at once. Each costs tens of kB; a 20,000-tool toolbox called tool by tool
 * would otherwise keep one per tool for the life of the process. The least recently used is dropped
 * (and recompiled if called again: about a millisecond).
 */
export const VALIDATOR_CACHE_SIZE = 500;
/**
 * Arguments with more values than this are checked to their first problem, not for every problem:
 * with allErrors, ajv makes one error object per unknown key, and a huge object of unknown keys would
 * hold the event loop for every agent. Real arguments have a few dozen values.
 */
export const FULL_CHECK_MAX_VALUES = 1_000;

function newAjv(allErrors: boolean): Ajv {
  const { Ajv } = requireCjs('ajv') as typeof import('ajv');
  const formats = requireCjs('ajv-formats') as { default?: unknown };
  // ajv-formats ships CommonJS: its function is the module itself, or its `default`.
  const addFormats = (formats.default ?? formats) as (a: Ajv) => void;
  // addUsedSchema: false: a schema's $id is not registered, so two upstreams' schemas that share an
  // $id are both compiled (the second was refused as "already exists" and went unchecked).
  const ajv = new Ajv({ allErrors, strict: false, validateSchema: false, addUsedSchema: false });
  addFormats(ajv);
  return ajv;
}

export class ArgumentValidator {
  /**
   * Made at the first check, and made anew after 2 × the bound compiles: ajv keeps every compiled
   * function's code and names in its scope (`removeSchema` does not free them, and each validator
   * holds the whole scope), so one instance grows with every distinct schema ever compiled, without
   * bound. A fresh instance with an empty cache lets the old one go whole.
   */
  private ajv: Ajv | undefined;
  private compiledHere = 0;
  /** Least recently used first out; ajv keeps its own cache of compiled schemas by schema object: dropped there too. */
  private readonly cache: LRUCache<string, { fn: ValidateFunction | null; schema: object }>;
  /** Validators that stop at the first problem, for arguments past FULL_CHECK_MAX_VALUES (made on first need). */
  private quick: ArgumentValidator | undefined;

  constructor(
    private readonly maxSize = VALIDATOR_CACHE_SIZE,
    private readonly allErrors = true,
  ) {
    this.cache = new LRUCache({ max: maxSize, dispose: (old, _key, reason) => reason === 'evict' && this.ajv?.removeSchema(old.schema) });
  }

  /** Compiles made by the ajv instance in use (at most 2 × the bound). */
  get compiledByCurrent(): number {
    return this.compiledHere;
  }

  /** Validators held now (at most the bound). */
  get size(): number {
    return this.cache.size;
  }

  /** Undefined when the arguments fit, else a sentence listing every problem. */
  /** `values`: how many values the arguments hold, when the caller has counted them already (argShape). */
  check(entry: ToolEntry, args: Record<string, unknown> | undefined, values?: number): string | undefined {
    if (this.allErrors && (values !== undefined ? values > FULL_CHECK_MAX_VALUES : hasMoreValuesThan(args, FULL_CHECK_MAX_VALUES))) {
      // A smaller cache: calls this large are rare, and each validator costs tens of kB.
      this.quick ??= new ArgumentValidator(Math.max(1, Math.floor(this.maxSize / 10)), false);
      const problem = this.quick.check(entry, args);
      return (
        problem &&
        problem.replace(
          ' do not match its input schema: ',
          ` do not match its input schema (they hold more than ${FULL_CHECK_MAX_VALUES} values; the first problem): `,
        )
      );
    }
    const validate = this.compile(entry);
    if (!validate) return undefined; // a schema ajv cannot compile: the upstream is the judge
    if (validate(args ?? {})) return undefined;
    const problems = (validate.errors ?? []).slice(0, 8).map(describe);
    return `The arguments for ${entry.name} do not match its input schema: ${problems.join('; ')}. Fix them and call again (search_tools "${entry.name}" shows the schema).`;
  }

  /**
   * A schema's key is its content: tools whose schemas are the same (an upstream's tools often share
   * one shape) share one validator, compiled once. Kept per schema object, which lives as long as its
   * toolbox entry, so a call does not serialize its schema again.
   */
  private readonly schemaKeys = new WeakMap<object, string>();

  private keyOf(schema: object): string {
    let key = this.schemaKeys.get(schema);
    if (key === undefined) {
      key = createHash('sha256').update(JSON.stringify(schema)).digest('base64url');
      this.schemaKeys.set(schema, key);
    }
    return key;
  }

  private compile(entry: ToolEntry): ValidateFunction | null {
    const schema = entry.tool.inputSchema as object;
    const key = this.keyOf(schema);
    const hit = this.cache.get(key);
    if (hit) {
      return hit.fn;
    }
    if (!this.ajv || this.compiledHere >= 2 * this.maxSize) {
      this.ajv = newAjv(this.allErrors);
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

/** Whether `v` holds more than `max` values (keys and items at any depth), counted without recursion and stopping at max. */
export function hasMoreValuesThan(v: unknown, max: number): boolean {
  let n = 0;
  const stack: unknown[] = [v];
  while (stack.length) {
    const x = stack.pop();
    if (typeof x !== 'object' || x === null) continue;
    if (Array.isArray(x)) {
      n += x.length;
      if (n > max) return true;
      for (const c of x) if (typeof c === 'object' && c !== null) stack.push(c);
    } else {
      // for…in stops when the count is past max: Object.keys would list all 300,000 first.
      for (const k in x) {
        if (++n > max) return true;
        const c = (x as Record<string, unknown>)[k];
        if (typeof c === 'object' && c !== null) stack.push(c);
      }
    }
  }
  return false;
}

/**
 * How deep `v` nests (up to `maxDepth`: deeper answers tooDeep) and how many values it holds, in one
 * walk without recursion. Each walk of a huge object is slow (V8 lists every key of a
 * dictionary object first, even for a for…in that stops early): the router walks once for both.
 */
export function argShape(v: unknown, maxDepth: number): { tooDeep: boolean; values: number } {
  let values = 0;
  const stack: Array<[unknown, number]> = [[v, 0]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (typeof x !== 'object' || x === null) continue;
    if (d >= maxDepth) return { tooDeep: true, values };
    if (Array.isArray(x)) {
      values += x.length;
      for (const child of x) if (typeof child === 'object' && child !== null) stack.push([child, d + 1]);
    } else {
      for (const k in x) {
        values++;
        const child = (x as Record<string, unknown>)[k];
        if (typeof child === 'object' && child !== null) stack.push([child, d + 1]);
      }
    }
  }
  return { tooDeep: false, values };
}
