// The agent's own past requests as sentence vectors: when a search's query led to a
// tool (a pair learning.ts keeps), the query's vector is kept with that tool, so a later request that
// means the same in other words ("drop a note on the ticket" after "comment on the issue") lifts it.
// Learned words need the same word again; this needs only the same meaning.
//
// Kept per agent, bounded, in `query-vectors.json` in the state folder (written atomically), as int8
// with one scale per vector (384 bytes instead of 1,536). Who sees whose requests is learningScope.ts's
// rule, as for learned words. Vectors of another model are not used.
import { join } from 'node:path';
import { readJsonSafe, writeJsonAtomic } from '../store/atomicJson.js';
import { silentLogger, type Logger } from '../log.js';
import { requestKey, learnedWordsOf } from './learnedEvidence.js';
import { withoutQuotedSpans } from './queryArguments.js';
import type { EvidenceScope } from './learningScope.js';

export const QUERY_MEMORY_FILE = 'query-vectors.json';
/** Requests kept per agent (the newest); ~0.5 kB each on disk. */
export const MAX_QUERIES_PER_AGENT = 1000;
/** Requests kept over all agents: bounds memory (~4 MB) whatever the number of agents. */
export const MAX_QUERIES_TOTAL = 10_000;
/**
 * The rule (chosen on the tuning sets, docs/research/search.md): an earlier request counts as one more text of
 * the tool it led to, at its cosine less TEXT_MARGIN, and only from NEAR_COSINE (after the margin) up.
 * A request for one tool is also near its siblings' texts: the margin keeps it from pulling them up.
 */
export const NEAR_COSINE = 0.5;
const TEXT_MARGIN = 0.15;
/** The rule's numbers, overridable only to measure them (bench/searchLearning.ts). */
export type QueryMemoryTuning = { nearCosine?: number; margin?: number };
/** Another agent's request counts as if this much farther (nearestPerTool). */
const SHARED_DISTANCE = 0.05;
const SAVE_DELAY_MS = 5_000;

/**
 * One kept request: query text, the tool it led to, when, and its vector (int8 × scale). `key`: the
 * request's words (a repeat is not "like" itself); `bare`: the same without quoted spans, as the model read it.
 */
type Kept = { q: string; t: string; ts: number; key: string; bare: string; v: Int8Array; s: number };
type FileShape = {
  version: 1;
  model: string;
  dim: number;
  agents: Record<string, Array<{ q: string; t: string; ts: number; v: string; s: number }>>;
};

/** The nearest earlier request that led to a tool, and its cosine to the new one (after the rule's margin). */
export type LikeEarlier = { query: string; cosine: number };

export class QueryMemory {
  private readonly agents = new Map<string, Kept[]>();
  private total = 0;
  private model: { name: string; dim: number } | undefined;
  private saveTimer: NodeJS.Timeout | undefined;
  private dirty = false;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly opts: {
      /** Where query-vectors.json lives; undefined keeps requests in memory only (eval, tests). */
      stateDir?: string;
      now: () => number;
      log?: Logger;
      tuning?: QueryMemoryTuning;
    },
  ) {
    this.nearCosine = opts.tuning?.nearCosine ?? NEAR_COSINE;
    this.margin = opts.tuning?.margin ?? TEXT_MARGIN;
  }

  private readonly margin: number;
  private readonly nearCosine: number;

  /** How many requests are kept, per agent. */
  counts(): Record<string, number> {
    return Object.fromEntries([...this.agents].map(([a, l]) => [a, l.length]));
  }

  /**
   * `query` led `agent` to `tool`, and `v` is the query's vector under `model`. The same request to the
   * same tool again refreshes the kept one rather than adding a copy; so does one that differs only in a
   * quoted argument (`weather in "Oslo"`, then `"Lima"`): the model read both the same.
   */
  /** Whether `agent`'s request (as `remember` matches it) that led to `tool` is kept. */
  has(agent: string, query: string, tool: string): boolean {
    const bare = requestKey(withoutQuotedSpans(query));
    return this.agents.get(agent)?.some((k) => k.bare === bare && k.t === tool) ?? false;
  }

  remember(agent: string, query: string, tool: string, v: Float32Array, model: string, ts = this.opts.now()): void {
    const key = requestKey(query);
    if (!key) return;
    if (this.model && (this.model.name !== model || this.model.dim !== v.length)) {
      // A different model: earlier vectors are not comparable with its queries.
      this.agents.clear();
      this.total = 0;
    }
    this.model = { name: model, dim: v.length };
    let list = this.agents.get(agent);
    if (!list) this.agents.set(agent, (list = []));
    const bare = requestKey(withoutQuotedSpans(query));
    const same = list.findIndex((k) => k.bare === bare && k.t === tool);
    if (same >= 0) {
      list.splice(same, 1);
      this.total--;
    }
    list.push({ q: query, t: tool, ts, key, bare, ...quantize(v) });
    this.total++;
    if (list.length > MAX_QUERIES_PER_AGENT) this.total -= list.splice(0, list.length - MAX_QUERIES_PER_AGENT).length;
    while (this.total > MAX_QUERIES_TOTAL) this.dropOldest();
    this.changed();
  }

  /**
   * Per tool, the nearest earlier request (cosine ≥ the threshold, not this same request) that led to
   * it, as `agent`'s scope lets it see them: a past request counts as one more text of its tool.
   */
  nearestPerTool(
    qv: Float32Array,
    query: string,
    agent: string | undefined,
    scope: EvidenceScope,
    model: string,
  ): Map<string, LikeEarlier> | undefined {
    if (!this.model || this.model.name !== model || this.model.dim !== qv.length || this.total === 0) return undefined;
    const key = requestKey(query);
    let out: Map<string, LikeEarlier> | undefined;
    for (const [owner, list] of this.agents) {
      const own = owner === agent || agent === undefined;
      if (!own && !scope.everyone && !scope.includes(owner)) continue;
      for (const k of list) {
        if (k.key === key) continue;
        // Another agent's request is a weaker clue: as if a little farther.
        const cos = dot(qv, k) - (own ? 0 : SHARED_DISTANCE) - this.margin;
        if (cos < this.nearCosine) continue;
        const had = out?.get(k.t);
        if (!had || had.cosine < cos) (out ??= new Map()).set(k.t, { query: k.q, cosine: cos });
      }
    }
    return out;
  }

  /** Forgets what led to `tool` (every agent); with `word`, only the requests that held it (by stem). */
  forget(tool: string, word?: string): number {
    const stems = word === undefined ? undefined : new Set(learnedWordsOf(word));
    if (stems && stems.size === 0) return 0;
    let n = 0;
    for (const [agent, list] of this.agents) {
      const kept = list.filter((k) => k.t !== tool || (stems !== undefined && !learnedWordsOf(k.q).some((w) => stems.has(w))));
      n += list.length - kept.length;
      if (kept.length === list.length) continue;
      if (kept.length) this.agents.set(agent, kept);
      else this.agents.delete(agent);
    }
    this.total -= n;
    if (n > 0) this.changed();
    return n;
  }

  async load(): Promise<void> {
    if (!this.opts.stateDir) return;
    const r = await readJsonSafe<FileShape>(this.file(), this.opts.log ?? silentLogger, isFileShape);
    if (r.kind !== 'ok') return;
    const { model, dim } = r.value;
    const lists: Array<[string, Kept[]]> = [];
    for (const [agent, raw] of Object.entries(r.value.agents)) {
      if (!Array.isArray(raw)) continue;
      const list: Kept[] = [];
      for (const x of raw.slice(-MAX_QUERIES_PER_AGENT)) {
        const k = keptOf(x, dim);
        if (k) list.push(k);
      }
      if (list.length) lists.push([agent, list]);
    }
    this.agents.clear();
    this.total = 0;
    // Over the total bound (a hand-edited or foreign file): the most recently active agents first.
    lists.sort((a, b) => b[1][b[1].length - 1]!.ts - a[1][a[1].length - 1]!.ts);
    for (const [agent, list] of lists) {
      const room = MAX_QUERIES_TOTAL - this.total;
      if (room <= 0) break;
      const kept = list.slice(-room);
      this.agents.set(agent, kept);
      this.total += kept.length;
    }
    this.model = { name: model, dim };
  }

  /** Writes pending requests now (on stop). */
  async flush(): Promise<void> {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (this.dirty && this.opts.stateDir && this.model) {
      this.dirty = false;
      const agents: FileShape['agents'] = {};
      for (const [a, list] of this.agents)
        agents[a] = list.map((k) => ({
          q: k.q,
          t: k.t,
          ts: k.ts,
          v: Buffer.from(k.v.buffer, k.v.byteOffset, k.v.byteLength).toString('base64'),
          s: k.s,
        }));
      const value: FileShape = { version: 1, model: this.model.name, dim: this.model.dim, agents };
      const file = this.file();
      const write = this.writing.then(() => writeJsonAtomic(file, value, 0o600, true));
      this.writing = write.catch(() => {});
      return write;
    }
    await this.writing;
  }

  private dropOldest(): void {
    // The oldest request of the agent that keeps the most: one busy agent does not push out the others.
    let biggest: Kept[] | undefined;
    let who = '';
    for (const [a, list] of this.agents) if (!biggest || list.length > biggest.length) [biggest, who] = [list, a];
    if (!biggest) return;
    biggest.shift();
    this.total--;
    if (!biggest.length) this.agents.delete(who);
  }

  private changed(): void {
    this.dirty = true;
    if (!this.opts.stateDir || this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      this.flush().catch((err: unknown) => this.opts.log?.warn(`${QUERY_MEMORY_FILE} could not be written: ${(err as Error).message}`));
    }, SAVE_DELAY_MS);
    this.saveTimer.unref?.();
  }

  private file(): string {
    return join(this.opts.stateDir!, QUERY_MEMORY_FILE);
  }
}

function quantize(v: Float32Array): { v: Int8Array; s: number } {
  let max = 0;
  for (const x of v) max = Math.max(max, Math.abs(x));
  const s = max / 127 || 1;
  const out = new Int8Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = Math.round(v[i]! / s);
  return { v: out, s };
}

function dot(q: Float32Array, k: Kept): number {
  let sum = 0;
  const v = k.v;
  for (let i = 0; i < v.length; i++) sum += q[i]! * v[i]!;
  return sum * k.s;
}

function isFileShape(v: unknown): v is FileShape {
  const x = v as FileShape | null;
  return (
    !!x &&
    x.version === 1 &&
    typeof x.model === 'string' &&
    Number.isInteger(x.dim) &&
    x.dim > 0 &&
    x.dim <= 4096 &&
    typeof x.agents === 'object' &&
    x.agents !== null
  );
}

/** A kept request as the file should hold it (a hand-edited file may hold anything). */
function keptOf(x: unknown, dim: number): Kept | undefined {
  const r = x as { q?: unknown; t?: unknown; ts?: unknown; v?: unknown; s?: unknown } | null;
  if (
    !r ||
    typeof r.q !== 'string' ||
    typeof r.t !== 'string' ||
    !Number.isFinite(r.ts) ||
    typeof r.v !== 'string' ||
    !Number.isFinite(r.s) ||
    (r.s as number) <= 0
  )
    return undefined;
  const bytes = Buffer.from(r.v, 'base64');
  if (bytes.length !== dim) return undefined;
  const key = requestKey(r.q);
  if (!key) return undefined;
  return {
    q: r.q,
    t: r.t,
    ts: r.ts as number,
    key,
    bare: requestKey(withoutQuotedSpans(r.q)),
    v: new Int8Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + dim)),
    s: r.s as number,
  };
}
