// Splitting a gold set into training and test halves for `mws eval --split`: seeded, so a figure can
// be reproduced; by query (the same tools appear on both sides) or by tool (no tool on both sides).
import type { GoldQuery } from './evaluate.js';

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

export function splitGold(gold: GoldQuery[], share: number, seed: number, by: 'query' | 'tool'): { train: GoldQuery[]; test: GoldQuery[] } {
  const random = rng(seed);
  if (by === 'query') {
    const order = shuffle(gold, random);
    const cut = Math.round(order.length * share);
    return { train: order.slice(0, cut), test: order.slice(cut) };
  }
  // By tool: tools are dealt to the two sides; a query whose expected tools fall on both is dropped,
  // so the two sides share no tool at all.
  const tools = shuffle([...new Set(gold.map((g) => g.expected[0]!))].sort(), random);
  const trainTools = new Set(tools.slice(0, Math.round(tools.length * share)));
  const train = gold.filter((g) => g.expected.every((t) => trainTools.has(t)));
  const test = gold.filter((g) => !g.expected.some((t) => trainTools.has(t)));
  return { train, test };
}
