// The one edit distance of the app: optimal string alignment (a swap of two letters is one edit),
// bounded, for "did you mean" (commands, flags, config fields) and the search's typo tolerance.
// Tool names are ranked by fuse.js instead (search/service.ts): a name typed in part
// (`send_message` for `mail_send_message`) is far by edits but close by its pieces.

// Three rows of the distance table, reused: words longer than this are never typo-corrected.
const MAX_WORD = 64;
const rowA = new Int32Array(MAX_WORD + 1);
const rowB = new Int32Array(MAX_WORD + 1);
const rowC = new Int32Array(MAX_WORD + 1);

/** Optimal string alignment distance, stopping early past `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a.length > MAX_WORD || b.length > MAX_WORD) return max + 1;
  let prev2 = rowA;
  let prev = rowB;
  let cur = rowC;
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1))
        v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[b.length]!;
}

/** The closest of `known` to `word`, if it is close enough to be a slip (a third of its length, at least 2). */
export function closest(word: string, known: readonly string[]): string | undefined {
  const max = Math.max(2, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    const d = k.startsWith(word) && word.length >= 2 ? 0.5 : editDistance(word, k, max);
    if (d < bestD) [best, bestD] = [k, d];
  }
  return bestD <= max ? best : undefined;
}
