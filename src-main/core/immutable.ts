// Values shared between answers: frozen all the way down, so that no caller can change what the next
// caller is given, and so that what is derived from one (its JSON, envelopeJson.ts) stays true. For plain
// JSON data only (objects, arrays, primitives): a frozen Date or Map can still be changed through its methods.

/** The values deepFreeze was given (not what it reached inside them). */
const frozenRoots = new WeakSet<object>();

/** Nesting past this is taken for a cycle, which plain JSON data cannot hold. */
const MAX_DEPTH = 1000;

/** Freezes `value` and everything reachable from it; answers `value`. Throws a TypeError for a cycle. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  freezeAll(value, 0);
  frozenRoots.add(value);
  return value;
}

// Every object is visited, frozen already or not: one frozen by someone else may hold what is not. By
// index and for-in rather than Object.values (an array made for every object visited), and with a depth
// rather than a set of the objects seen, whose upkeep cost as much as the freezing.
function freezeAll(value: object, depth: number): void {
  if (depth > MAX_DEPTH) throw new TypeError(`deepFreeze: nested more than ${MAX_DEPTH} levels deep (a cycle?); it takes plain JSON data.`);
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) freezeItem(value[i], depth);
  } else {
    for (const k in value) freezeItem((value as Record<string, unknown>)[k], depth);
  }
}

function freezeItem(v: unknown, depth: number): void {
  if (typeof v === 'object' && v !== null) freezeAll(v, depth + 1);
}

/** Whether `value` was frozen all the way down by deepFreeze: no property in it can change. */
export function isDeeplyFrozen(value: object): boolean {
  return frozenRoots.has(value);
}
