// Small readers for untyped JSON that throw `config_invalid` naming the field's path and the reason.
import { MwsError } from '../errors.js';

export type Obj = Record<string, unknown>;

export function fail(path: string, reason: string, value?: unknown): never {
  const got = value === undefined ? '' : ` (got ${JSON.stringify(value)?.slice(0, 80)})`;
  throw new MwsError('config_invalid', `config field "${path}" ${reason}${got}.`, { path, reason });
}

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function obj(v: unknown, path: string, known: readonly string[]): Obj {
  if (!isObj(v)) fail(path, 'must be an object', v);
  for (const k of Object.keys(v)) {
    if (!known.includes(k)) fail(path ? `${path}.${k}` : k, `is not a known field; known fields here: ${known.join(', ')}`);
  }
  return v;
}

export function str(v: unknown, path: string, opts: { nonEmpty?: boolean; pattern?: RegExp; hint?: string } = {}): string {
  if (typeof v !== 'string') fail(path, 'must be a string', v);
  if (opts.nonEmpty && v.trim() === '') fail(path, 'must not be empty');
  if (opts.pattern && !opts.pattern.test(v)) fail(path, opts.hint ?? `must match ${opts.pattern}`, v);
  return v;
}

export function int(v: unknown, path: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    fail(path, `must be a whole number from ${min} to ${max}`, v);
  }
  return v;
}

export function bool(v: unknown, path: string): boolean {
  if (typeof v !== 'boolean') fail(path, 'must be true or false', v);
  return v;
}

export function strArray(v: unknown, path: string): string[] {
  if (!Array.isArray(v)) fail(path, 'must be an array of strings', v);
  return v.map((item, i) => str(item, `${path}[${i}]`, { nonEmpty: true }));
}

export function strRecord(v: unknown, path: string): Record<string, string> {
  if (!isObj(v)) fail(path, 'must be an object of strings', v);
  const out: Record<string, string> = {};
  for (const [k, item] of Object.entries(v)) out[k] = str(item, `${path}.${k}`);
  return out;
}

export function oneOf<T extends string>(v: unknown, path: string, values: readonly T[]): T {
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
    fail(path, `must be one of ${values.map((x) => `"${x}"`).join(', ')}`, v);
  }
  return v as T;
}

/** Reads an optional field: `undefined` when absent, else the reader's value. */
export function opt<T>(o: Obj, key: string, path: string, read: (v: unknown, p: string) => T): T | undefined {
  if (!(key in o) || o[key] === undefined) return undefined;
  return read(o[key], path ? `${path}.${key}` : key);
}
