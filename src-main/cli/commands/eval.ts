// `mws eval --catalog FILE --gold FILE`: offline evaluation of search on any catalog and gold set.
import { readFile } from 'node:fs/promises';
import type { Tool } from '@modelcontextprotocol/client';
import { Toolbox } from '../../core/toolbox/toolbox.js';
import { DEFAULT_SEARCH_LIMIT, SEARCH_ENGINES, SearchService, type SearchEngine } from '../../core/search/service.js';
import { evalVectors, type EvalVectors } from '../../core/search/eval/evalVectors.js';
import { silentLogger } from '../../core/log.js';
import { evaluate, evaluateOnline, type EvalResult, type GoldQuery } from '../../core/search/eval/evaluate.js';
import { SearchLearning } from '../../core/search/learning.js';
import { splitGold } from '../../core/search/eval/split.js';
import { MwsError } from '../../core/errors.js';
import type { Io } from '../output.js';

export type EvalFlags = {
  catalog: string | undefined;
  gold: string | undefined;
  json: boolean;
  engine: string | undefined;
  /** A gold file fed as observed search→call pairs before evaluating --gold. */
  train?: string | undefined;
  /** Share of --gold used as training pairs; the rest is evaluated. */
  split?: string | undefined;
  seed?: string | undefined;
  /** Split by query (default) or by tool (train and test then share no tools). */
  by?: string | undefined;
  /** Learning as in use: each evaluated query is answered, then learned from, before the next. */
  online?: boolean;
};

async function readJsonFile(path: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new MwsError(
      'usage',
      `Cannot read the ${what} file ${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : (err as Error).message}.`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new MwsError('usage', `The ${what} file ${path} is not valid JSON: ${(err as Error).message}.`);
  }
}

export function parseCatalog(raw: unknown, path: string): Tool[] {
  const tools = (raw as { tools?: unknown } | null)?.tools;
  if (!Array.isArray(tools))
    throw new MwsError('usage', `The catalog file ${path} must be an object {"tools": [...]} of MCP tool objects.`);
  return tools.map((t, i) => {
    if (typeof t !== 'object' || t === null || typeof (t as { name?: unknown }).name !== 'string' || !(t as { name: string }).name) {
      throw new MwsError('usage', `The catalog file ${path}: tools[${i}] needs a non-empty string "name".`);
    }
    const tool = t as Tool;
    // Tools without a schema or a description still take part; they are just harder to find.
    return { ...tool, inputSchema: typeof tool.inputSchema === 'object' && tool.inputSchema ? tool.inputSchema : { type: 'object' } };
  });
}

export function parseGold(raw: unknown, path: string, known: Set<string>): GoldQuery[] {
  if (!Array.isArray(raw))
    throw new MwsError('usage', `The gold file ${path} must be an array of {"query": "...", "expected": ["tool name", ...]}.`);
  return raw.map((g, i) => {
    const q = (g as { query?: unknown })?.query;
    const e = (g as { expected?: unknown })?.expected;
    if (typeof q !== 'string') throw new MwsError('usage', `The gold file ${path}: [${i}].query must be a string.`);
    if (!Array.isArray(e) || e.length === 0 || !e.every((x) => typeof x === 'string')) {
      throw new MwsError('usage', `The gold file ${path}: [${i}].expected must be a non-empty array of tool names.`);
    }
    const unknown = e.filter((x) => !known.has(x));
    if (unknown.length)
      throw new MwsError('usage', `The gold file ${path}: [${i}] expects ${unknown.map((x) => `"${x}"`).join(', ')}, not in the catalog.`);
    return { query: q, expected: e as string[] };
  });
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export async function runEval(io: Io, flags: EvalFlags): Promise<number> {
  if (!flags.catalog || !flags.gold) throw new MwsError('usage', 'mws eval needs --catalog FILE and --gold FILE.');
  const engine = (flags.engine ?? 'hybrid') as SearchEngine;
  if (!SEARCH_ENGINES.includes(engine))
    throw new MwsError('usage', `--engine must be one of ${SEARCH_ENGINES.join(', ')} (minisearch: plain BM25; got "${flags.engine}").`);
  if (flags.train && flags.split) throw new MwsError('usage', 'Give --train FILE or --split FRACTION, not both.');
  const tools = parseCatalog(await readJsonFile(flags.catalog, 'catalog'), flags.catalog);
  const known = new Set(tools.map((t) => t.name));
  let gold = parseGold(await readJsonFile(flags.gold, 'gold'), flags.gold, known);
  let train: GoldQuery[] | undefined;
  if (flags.train) train = parseGold(await readJsonFile(flags.train, 'training gold'), flags.train, known);
  if (flags.split) {
    const share = Number(flags.split);
    if (!(share > 0 && share < 1))
      throw new MwsError('usage', `--split must be a fraction between 0 and 1, like 0.5 (got "${flags.split}").`);
    const range = /^(\d+)-(\d+)$/.exec(flags.seed ?? '');
    const seed = flags.seed === undefined ? 1 : Number(flags.seed);
    if (!range && !Number.isInteger(seed))
      throw new MwsError('usage', `--seed must be a whole number, or a range like 1-8 (got "${flags.seed}").`);
    const by = flags.by ?? 'query';
    if (by !== 'query' && by !== 'tool') throw new MwsError('usage', `--by must be "query" or "tool" (got "${flags.by}").`);
    if (range) return seedRange(io, flags, tools, gold, share, by, Number(range[1]), Number(range[2]));
    ({ train, test: gold } = splitGold(gold, share, seed, by));
  }
  const toolbox = new Toolbox(new Map([['catalog', tools]]), false);
  const sem = await semanticFor(io, engine, toolbox, [...gold, ...(train ?? [])]);
  const run = (pairs: GoldQuery[] | undefined, online = false): EvalResult => evalWith(toolbox, engine, pairs, gold, online, sem);
  const result = run(undefined);
  const learned = train || flags.online ? run(train, flags.online) : undefined;
  const { misses, ...metrics } = learned ?? result;
  if (!flags.json) {
    io.out(
      `search eval: ${result.n} queries over ${toolbox.size} tools (engine ${engine})${train ? `, after learning from ${train.length} search→call pairs` : ''}${flags.online ? ', learning from each query after answering it' : ''}`,
    );
    const line = (r: EvalResult) =>
      `top-1 ${pct(r.top1)}  top-3 ${pct(r.top3)}  top-5 ${pct(r.top5)}  MRR ${r.mrr.toFixed(3)}  recall@5 ${pct(r.recall5)}`;
    if (learned) {
      io.out(`without learning: ${line(result)}`);
      io.out(
        `with learning:    ${line(learned)}  (top-1 ${learned.top1 >= result.top1 ? '+' : ''}${((learned.top1 - result.top1) * 100).toFixed(1)} points)`,
      );
    } else io.out(line(result));
    io.out(`latency p50 ${result.p50Ms.toFixed(3)} ms  p99 ${result.p99Ms.toFixed(3)} ms  index ${result.indexMs.toFixed(1)} ms`);
    if (sem?.warning) io.out(`note: ${sem.warning}`);
    for (const m of misses.slice(0, 15))
      io.out(`  miss: "${m.query}" → ${m.got.join(', ') || '(nothing)'}  (expected ${m.expected.join(' | ')})`);
  } else if (learned) {
    const { misses: _m, ...base } = result;
    void _m;
    io.out(JSON.stringify({ ...metrics, trained: train?.length ?? 0, ...(flags.online ? { online: true } : {}), withoutLearning: base }));
  } else {
    io.out(JSON.stringify(metrics));
  }
  await sem?.stop();
  return 0;
}

/** Vectors for the dense and hybrid engines (the shipped model); a model that cannot load leaves them lexical. */
async function semanticFor(io: Io, engine: SearchEngine, toolbox: Toolbox, gold: GoldQuery[]): Promise<EvalVectors | undefined> {
  if (engine !== 'dense' && engine !== 'hybrid') return undefined;
  // MWS_EVAL_VECTORS: a folder to keep the tools' vectors in between runs (by definition hash).
  return evalVectors(
    toolbox,
    gold.map((g) => g.query),
    silentLogger,
    process.env.MWS_EVAL_VECTORS || undefined,
  );
}

/** Evaluates `gold` after learning from `pairs` (none: without learning). */
function evalWith(
  toolbox: Toolbox,
  engine: SearchEngine,
  pairs: GoldQuery[] | undefined,
  gold: GoldQuery[],
  online = false,
  sem?: EvalVectors,
): EvalResult {
  const qv = (q: string) => sem?.query(q);
  // Learned pairs keep their query's vector (the query memory) when the engine has a model.
  const model = sem?.vectors.model?.();
  const vectorOf = (q: string) => {
    const v = model ? sem?.query(q) : undefined;
    return v && model ? { v, model } : undefined;
  };
  if (online) {
    // A minute between searches, a second to the call: as an agent works, inside the learning window.
    let clock = Date.now();
    const learning = new SearchLearning({ now: () => clock, enabled: () => true, vectorOf });
    if (pairs)
      learning.train(
        EVAL_AGENT,
        pairs.map((g) => ({ query: g.query, tool: g.expected[0]!, ts: clock })),
      );
    const s = new SearchService(() => toolbox, {}, engine, learning, sem?.vectors);
    return evaluateOnline(
      () => (s.warm(), (q, k) => s.resolve(q, k, EVAL_AGENT, qv(q)).entries.map((e) => e.name)),
      gold,
      (g, shown) => {
        clock += 60_000;
        const hits = shown.slice(0, DEFAULT_SEARCH_LIMIT);
        learning.searched(EVAL_AGENT, g.query, hits);
        // The agent calls the tool only if the search showed it (search_tools shows 8 by default);
        // otherwise it found nothing to call, and nothing is learned.
        clock += 1_000;
        if (hits.some((h) => g.expected.includes(h)))
          learning.called(
            EVAL_AGENT,
            g.expected.find((e) => hits.includes(e))!,
          );
      },
    );
  }
  return evaluate(() => {
    const learning = pairs ? new SearchLearning({ now: () => Date.now(), enabled: () => true, vectorOf }) : undefined;
    if (learning && pairs)
      learning.train(
        EVAL_AGENT,
        pairs.map((g) => ({ query: g.query, tool: g.expected[0]! })),
      );
    const s = new SearchService(() => toolbox, {}, engine, learning, sem?.vectors);
    s.warm();
    return (q, k) => s.resolve(q, k, EVAL_AGENT, qv(q)).entries.map((e) => e.name);
  }, gold);
}

/**
 * `--split F --seed A-B`: one split per seed, each evaluated without and with learning; answers the
 * mean and spread (sample standard deviation) of top-1 and of the gain, so one lucky split proves nothing.
 */
async function seedRange(
  io: Io,
  flags: EvalFlags,
  tools: ReturnType<typeof parseCatalog>,
  gold: GoldQuery[],
  share: number,
  by: 'query' | 'tool',
  from: number,
  to: number,
): Promise<number> {
  if (to < from || to - from >= 100) throw new MwsError('usage', `--seed A-B needs A ≤ B and at most 100 seeds (got "${flags.seed}").`);
  const engine = (flags.engine ?? 'hybrid') as SearchEngine;
  const toolbox = new Toolbox(new Map([['catalog', tools]]), false);
  const sem = await semanticFor(io, engine, toolbox, gold);
  const rows: Array<{ seed: number; n: number; trained: number; without: number; with: number }> = [];
  for (let seed = from; seed <= to; seed++) {
    const { train, test } = splitGold(gold, share, seed, by);
    rows.push({
      seed,
      n: test.length,
      trained: train.length,
      without: evalWith(toolbox, engine, undefined, test, false, sem).top1,
      with: evalWith(toolbox, engine, train, test, flags.online, sem).top1,
    });
  }
  const stat = (xs: number[]) => {
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd = xs.length > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1)) : 0;
    return { mean: Math.round(mean * 10_000) / 10_000, sd: Math.round(sd * 10_000) / 10_000 };
  };
  const summary = {
    by,
    split: share,
    ...(flags.online ? { online: true } : {}),
    seeds: rows,
    without: stat(rows.map((r) => r.without)),
    with: stat(rows.map((r) => r.with)),
    gain: stat(rows.map((r) => r.with - r.without)),
  };
  await sem?.stop();
  if (flags.json) {
    io.out(JSON.stringify(summary));
    return 0;
  }
  const pts = (x: number) => (x * 100).toFixed(1);
  io.out(
    `search eval: --split ${share} by ${by}, seeds ${from}-${to}, ${toolbox.size} tools (engine ${engine})${flags.online ? '; held-out queries learned from as they are answered' : ''}`,
  );
  for (const r of rows) io.out(`  seed ${r.seed}: ${r.trained} pairs learned, ${r.n} held out: top-1 ${pct(r.without)} → ${pct(r.with)}`);
  io.out(
    `top-1 without learning ${pts(summary.without.mean)} ± ${pts(summary.without.sd)}, with ${pts(summary.with.mean)} ± ${pts(summary.with.sd)}; gain ${summary.gain.mean >= 0 ? '+' : ''}${pts(summary.gain.mean)} ± ${pts(summary.gain.sd)} points (min ${pts(Math.min(...rows.map((r) => r.with - r.without)))})`,
  );
  return 0;
}

/** The agent id training pairs are recorded under in an offline evaluation. */
const EVAL_AGENT = 'eval';
