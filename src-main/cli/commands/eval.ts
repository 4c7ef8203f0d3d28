// `mws eval --catalog FILE --gold FILE`: offline evaluation of search on any catalog and gold set.
import { readFile } from 'node:fs/promises';
import type { Tool } from '@modelcontextprotocol/client';
import { Toolbox } from '../../core/toolbox/toolbox.js';
import { SearchService, type SearchEngine } from '../../core/search/service.js';
import { evaluate, type GoldQuery } from '../../core/search/evaluate.js';
import { MwsError } from '../../core/errors.js';
import type { Io } from '../output.js';

export type EvalFlags = { catalog: string | undefined; gold: string | undefined; json: boolean; engine: string | undefined };

async function readJsonFile(path: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new MwsError('usage', `Cannot read the ${what} file ${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : (err as Error).message}.`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new MwsError('usage', `The ${what} file ${path} is not valid JSON: ${(err as Error).message}.`);
  }
}

export function parseCatalog(raw: unknown, path: string): Tool[] {
  const tools = (raw as { tools?: unknown } | null)?.tools;
  if (!Array.isArray(tools)) throw new MwsError('usage', `The catalog file ${path} must be an object {"tools": [...]} of MCP tool objects.`);
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
  if (!Array.isArray(raw)) throw new MwsError('usage', `The gold file ${path} must be an array of {"query": "...", "expected": ["tool name", ...]}.`);
  return raw.map((g, i) => {
    const q = (g as { query?: unknown })?.query;
    const e = (g as { expected?: unknown })?.expected;
    if (typeof q !== 'string') throw new MwsError('usage', `The gold file ${path}: [${i}].query must be a string.`);
    if (!Array.isArray(e) || e.length === 0 || !e.every((x) => typeof x === 'string')) {
      throw new MwsError('usage', `The gold file ${path}: [${i}].expected must be a non-empty array of tool names.`);
    }
    const unknown = e.filter((x) => !known.has(x));
    if (unknown.length) throw new MwsError('usage', `The gold file ${path}: [${i}] expects ${unknown.map((x) => `"${x}"`).join(', ')}, not in the catalog.`);
    return { query: q, expected: e as string[] };
  });
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export async function runEval(io: Io, flags: EvalFlags): Promise<number> {
  if (!flags.catalog || !flags.gold) throw new MwsError('usage', 'mws eval needs --catalog FILE and --gold FILE.');
  const engine = (flags.engine ?? 'bm25f') as SearchEngine;
  if (engine !== 'bm25f' && engine !== 'minisearch') throw new MwsError('usage', `--engine must be "bm25f" or "minisearch" (got "${flags.engine}").`);
  const tools = parseCatalog(await readJsonFile(flags.catalog, 'catalog'), flags.catalog);
  const gold = parseGold(await readJsonFile(flags.gold, 'gold'), flags.gold, new Set(tools.map((t) => t.name)));
  const toolbox = new Toolbox(new Map([['catalog', tools]]), false);
  const result = evaluate(() => {
    const s = new SearchService(() => toolbox, {}, engine);
    s.warm();
    return (q, k) => s.resolve(q, k).entries.map((e) => e.name);
  }, gold);
  const { misses, ...metrics } = result;
  if (!flags.json) {
    io.out(`search eval: ${result.n} queries over ${toolbox.size} tools (engine ${engine})`);
    io.out(`top-1 ${pct(result.top1)}  top-3 ${pct(result.top3)}  top-5 ${pct(result.top5)}  MRR ${result.mrr.toFixed(3)}  recall@5 ${pct(result.recall5)}`);
    io.out(`latency p50 ${result.p50Ms.toFixed(3)} ms  p99 ${result.p99Ms.toFixed(3)} ms  index ${result.indexMs.toFixed(1)} ms`);
    for (const m of misses.slice(0, 15)) io.out(`  miss: "${m.query}" → ${m.got.join(', ') || '(nothing)'}  (expected ${m.expected.join(' | ')})`);
  } else {
    io.out(JSON.stringify(metrics));
  }
  return 0;
}
