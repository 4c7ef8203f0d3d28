// Lossless schema slimming for listed tools: drops what a model reads but learns nothing from.
// Hand-written because the rules are the product's own (see docs/rules/listing.md).
import { isPlainObject } from '../../shared/plainObject.js';

type Json = unknown;
type Schema = Record<string, Json>;

function normalizeKey(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function isNullSchema(v: Json): boolean {
  return isPlainObject(v) && v.type === 'null' && Object.keys(v).length === 1;
}

/** Sets `o[k]`; a key named "__proto__" (JSON.parse makes it an own key) stays a key, not the prototype. */
function put(o: Schema, k: string, v: Json): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

/** `copy` when it differs from `node` in a key or a value, else `node` itself. */
function sameOr<T extends Schema | Json[]>(node: T, copy: T): T {
  const a = Object.keys(node);
  if (a.length !== Object.keys(copy).length) return copy;
  for (const k of a) if ((node as Schema)[k] !== (copy as Schema)[k] || !Object.hasOwn(copy, k)) return copy;
  return node;
}

/**
 * Slims one property schema. `optional` says whether its parent lets the property be omitted: only then
 * is `anyOf [X, null]` the same as `X`, since leaving the field out already says "no value".
 * What slimming leaves as it was is the upstream's own object, shared, not a copy: at 5,000 tools the
 * copies were ~2 MB of heap, and most schemas have nothing to drop. Neither is ever changed in place.
 */
function slimNode(node: Json, key: string | undefined, optional: boolean): Json {
  if (Array.isArray(node))
    return sameOr(
      node,
      node.map((n) => slimNode(n, undefined, false)),
    );
  if (!isPlainObject(node)) return node;
  const out: Schema = {};
  for (const [k, v] of Object.entries(node)) {
    // `$schema` stays: it tells a validator which draft (2020-12 vs draft-07) the keywords follow.
    if (k === 'default' && v === null) continue;
    if (k === 'title' && key !== undefined && typeof v === 'string' && normalizeKey(v) === normalizeKey(key)) continue;
    if (k === 'properties' && isPlainObject(v)) {
      const required = new Set(Array.isArray(node.required) ? node.required.filter((r): r is string => typeof r === 'string') : []);
      const props: Schema = {};
      for (const [pk, pv] of Object.entries(v)) put(props, pk, slimNode(pv, pk, !required.has(pk)));
      put(out, k, sameOr(v, props));
      continue;
    }
    if ((k === '$defs' || k === 'definitions' || k === 'patternProperties') && isPlainObject(v)) {
      const defs: Schema = {};
      for (const [dk, dv] of Object.entries(v)) put(defs, dk, slimNode(dv, undefined, false));
      put(out, k, sameOr(v, defs));
      continue;
    }
    put(out, k, typeof v === 'object' && v !== null ? slimNode(v, undefined, false) : v);
  }
  if (optional) collapseNullable(out);
  return sameOr(node, out);
}

/** `anyOf: [X, {type: null}]` → X's keywords merged into the node, when X has nothing that clashes. */
function collapseNullable(node: Schema): void {
  for (const comb of ['anyOf', 'oneOf'] as const) {
    const alts = node[comb];
    if (!Array.isArray(alts) || alts.length !== 2) continue;
    const nonNull = alts.filter((a) => !isNullSchema(a));
    if (nonNull.length !== 1 || !isPlainObject(nonNull[0])) continue;
    const x = nonNull[0];
    if (Object.keys(x).some((k) => k in node && k !== comb)) continue;
    delete node[comb];
    for (const [xk, xv] of Object.entries(x)) put(node, xk, xv);
  }
  // `type: ["string", "null"]` is the same idea in another spelling.
  if (Array.isArray(node.type) && node.type.length === 2 && node.type.includes('null')) {
    const other = node.type.find((t) => t !== 'null');
    if (typeof other === 'string') node.type = other;
  }
}

export function slimSchema<T>(schema: T): T {
  return slimNode(schema, undefined, false) as T;
}

/** The first paragraph of a description, for `compactDescriptions`. */
export function firstParagraph(text: string): string {
  const trimmed = text.trim();
  const cut = trimmed.search(/\n\s*\n/);
  return cut === -1 ? trimmed : trimmed.slice(0, cut).trim();
}
