// Names that are also properties every JavaScript object has (constructor, __proto__, toString…): used
// as a key of a plain object they reach its prototype instead of a value. Ids (agents, upstreams) may
// not be one; maps keyed by other names (tools, pins) are null-prototype objects or Maps instead.

const RESERVED: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

export function isReservedName(name: string): boolean {
  return RESERVED.has(name);
}

/** The refusal's reason, as the config and the contract say it. */
export const RESERVED_NAME_WORDS =
  'is reserved: every JavaScript object already has a property of that name (such as constructor or prototype); choose another name';

/** An empty map for names from outside: no prototype, so every name, __proto__ included, is only a key. */
export function dict<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** A copy of a parsed object as a null-prototype map (JSON.parse keeps "__proto__" as an own key; this keeps it a key). */
export function toDict<T>(o: Record<string, T> | undefined): Record<string, T> {
  const out = dict<T>();
  if (o) for (const k of Object.keys(o)) out[k] = o[k]!;
  return out;
}

/** Every object inside a parsed document made a null-prototype map (arrays stay arrays). */
export function deepDict<T>(v: T): T {
  if (Array.isArray(v)) return v.map(deepDict) as T;
  if (v === null || typeof v !== 'object') return v;
  const out = dict<unknown>();
  for (const k of Object.keys(v)) out[k] = deepDict((v as Record<string, unknown>)[k]);
  return out as T;
}
