// Orders in which a benchmark's rounds visit its paths, so that no path is favoured by its place.

/**
 * The orders of a Williams design: in its rows each path comes first once and follows each other path
 * once (for an odd number of paths, over twice as many rows, twice). Round r runs row r mod rows.length.
 */
export function balancedOrders<T>(items: readonly T[]): T[][] {
  const n = items.length;
  const first = [0];
  for (let k = 1; first.length < n; k++) {
    first.push(k);
    if (first.length < n) first.push(n - k);
  }
  const rows = first.map((_, r) => first.map((i) => items[(i + r) % n]!));
  return n % 2 === 0 ? rows : [...rows, ...rows.map((row) => [...row].reverse())];
}
