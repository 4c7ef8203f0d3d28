// Keys made of identities: which objects, and which counts, a kept value was built from.

const ids = new WeakMap<object, number>();
let lastId = 0;

/**
 * A number for an object, the same for as long as it lives and never given to another: a key made of
 * these says which objects a kept value was built from without keeping them alive (an old toolbox
 * of 5,000 tools must not outlive its replacement because a report was built from it).
 */
export function objectId(o: object): number {
  let id = ids.get(o);
  if (id === undefined) ids.set(o, (id = ++lastId));
  return id;
}

/** Whether two lists hold the same items, compared as `===` compares them. */
export function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
