// Checks call arguments against the tool's inputSchema before anything reaches the upstream, and
// words the problems so a model can fix its call.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { ToolEntry } from '../toolbox/toolbox.js';

// ajv-formats ships CommonJS; under ESM its default export is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv) => void;

export class ArgumentValidator {
  private readonly ajv: Ajv;
  private readonly cache = new Map<string, ValidateFunction | null>();

  constructor() {
    this.ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false });
    addFormats(this.ajv);
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
    if (this.cache.has(key)) return this.cache.get(key) ?? null;
    let fn: ValidateFunction | null;
    try {
      fn = this.ajv.compile(entry.tool.inputSchema as object);
    } catch {
      fn = null;
    }
    this.cache.set(key, fn);
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
