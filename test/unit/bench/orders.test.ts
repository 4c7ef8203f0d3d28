import { describe, expect, it } from 'vitest';
import { balancedOrders } from '../../../bench/orders.js';

/** How often each path comes first, and how often each ordered pair of paths is next to each other, over the rows. */
function tally(rows: string[][]): { first: Map<string, number>; pairs: Map<string, number> } {
  const first = new Map<string, number>();
  const pairs = new Map<string, number>();
  for (const row of rows) {
    first.set(row[0]!, (first.get(row[0]!) ?? 0) + 1);
    for (let i = 1; i < row.length; i++) pairs.set(`${row[i - 1]}>${row[i]}`, (pairs.get(`${row[i - 1]}>${row[i]}`) ?? 0) + 1);
  }
  return { first, pairs };
}

describe("the call bench's orders of paths", () => {
  it.each([2, 3, 4, 5, 6, 7])('with %i paths, each comes first and follows each other path equally often', (n) => {
    const paths = Array.from({ length: n }, (_, i) => `p${i}`);
    const rows = balancedOrders(paths);
    expect(rows).toHaveLength(n % 2 === 0 ? n : 2 * n);
    for (const row of rows) expect([...row].sort()).toEqual(paths);
    const { first, pairs } = tally(rows);
    expect(new Set(first.values())).toEqual(new Set([rows.length / n]));
    // Every ordered pair of two different paths, the same number of times.
    expect(pairs.size).toBe(n * (n - 1));
    expect(new Set(pairs.values()).size).toBe(1);
  });
});
