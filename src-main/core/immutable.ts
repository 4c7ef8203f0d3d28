// Values shared between answers: frozen all the way down, so that no caller can change what the next
// caller is given, and so that what is derived from one (its JSON, envelopeJson.ts) stays true. For plain
// JSON data only (objects, arrays, primitives): a frozen Date or Map can still be changed through its methods.

/** The values deepFreeze was given (not what it reached inside them). */
const frozenRoots = new WeakSet<object>();

/** Freezes `value` and everything reachable from it; answers `value`. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  freezeAll(value, new Set());
  frozenRoots.add(value);
  return value;
}

// Every object is visited, frozen already or not (one frozen by someone else may hold what is not), once
// (cycles). By index and for-in rather than Object.values, which makes an array for every object visited.
function freezeAll(value: object, seen: Set<object>): void {
  if (seen.has(value)) return;
  seen.add(value);
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) freezeItem(value[i], seen);
  } else {
    for (const k in value) freezeItem((value as Record<string, unknown>)[k], seen);
  }
}

function freezeItem(v: unknown, seen: Set<object>): void {
  if (typeof v === 'object' && v !== null) freezeAll(v, seen);
}

/** Whether `value` was frozen all the way down by deepFreeze: no property in it can change. */
export function isDeeplyFrozen(value: object): boolean {
  return frozenRoots.has(value);
}
