// The search commands: a search as an agent would make it, an evaluation of search on a set of
// requests, and what search learned from the agents' own calls.
import { MwsError } from '../../core/errors.js';
import { CONFIG, JSON_OUT, AGENT, DEMO, str, flag, common, type Spec } from '../spec.js';

export const SEARCH: Record<string, Spec> = {
  search: {
    summary: 'the exact reply search_tools gives a model',
    usage: ['mws search "<query>" [--agent ID] [--limit N] [--json] [--explain]'],
    options: {
      config: CONFIG,
      agent: AGENT,
      limit: { type: 'string', arg: 'N', help: 'at most N hits (1–50)' },
      json: { type: 'boolean', help: 'print the exact reply the model gets, as JSON, instead of a table' },
      demo: DEMO,
      explain: { type: 'boolean', help: 'show which query word matched which field of each hit (learned words included)' },
    },
    positionals: Infinity,
    run: async (io, v, pos) => {
      const limit = str(v.limit) === undefined ? undefined : Number(v.limit);
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 50))
        throw new MwsError('usage', `--limit must be a whole number from 1 to 50 (got "${v.limit}").`);
      return (await import('../commands/search.js')).runSearch(io, {
        ...common(v),
        query: pos.join(' ') || undefined,
        limit,
        explain: flag(v.explain),
      });
    },
  },
  eval: {
    summary: 'offline search quality on any catalog and gold set',
    usage: [
      'mws eval --catalog FILE --gold FILE [--json] [--engine hybrid|bm25f|dense|minisearch]',
      'mws eval --catalog FILE --gold FILE [--train FILE | --split 0.5 [--seed N] [--by query|tool]] [--online]',
    ],
    options: {
      catalog: { type: 'string', arg: 'FILE', help: 'a JSON file {"tools": [...]}' },
      gold: { type: 'string', arg: 'FILE', help: 'a JSON array of {"query", "expected": [...]}' },
      json: JSON_OUT,
      engine: {
        type: 'string',
        arg: 'NAME',
        help: 'hybrid (default: words and the sentence model), bm25f (words), dense (the model alone) or minisearch (plain BM25)',
      },
      train: {
        type: 'string',
        arg: 'FILE',
        help: 'a gold file fed first as observed search→call pairs (learning), then --gold is evaluated',
      },
      split: { type: 'string', arg: 'F', help: 'split --gold: this share of it trains, the rest is evaluated' },
      seed: { type: 'string', arg: 'N', help: 'the seed of --split, or a range like 1-8 for the mean and spread over seeds' },
      by: { type: 'string', arg: 'HOW', help: 'split by query (default) or by tool (train and test share no tool)' },
      online: { type: 'boolean', help: 'learn as in use: each evaluated query is answered, then its search→call learned, before the next' },
    },
    positionals: 0,
    run: async (io, v) =>
      (await import('../commands/eval.js')).runEval(io, {
        catalog: str(v.catalog),
        gold: str(v.gold),
        json: flag(v.json),
        engine: str(v.engine),
        train: str(v.train),
        split: str(v.split),
        seed: str(v.seed),
        by: str(v.by),
        online: flag(v.online),
      }),
  },
  learned: {
    summary: 'the words search learned for each tool from searches followed by a call; forget them',
    usage: ['mws learned [--tool NAME] [--agent ID] [--json]', 'mws learned forget TOOL [WORD]   every learned word of TOOL, or only WORD'],
    options: {
      config: CONFIG,
      agent: { type: 'string', arg: 'ID', help: 'weigh as this agent sees them (its own searches count double)' },
      tool: { type: 'string', arg: 'NAME', help: 'only this tool' },
      json: JSON_OUT,
      demo: DEMO,
    },
    positionals: 3,
    run: async (io, v, pos) => {
      const cmd = await import('../commands/learned.js');
      // `--tool NAME` works for forget too (`mws learned forget --tool NAME [WORD]`).
      if (pos[0] === 'forget') {
        const tool = str(v.tool);
        return cmd.runForgetLearned(io, { ...common(v), tool: tool ?? pos[1], word: tool !== undefined ? pos[1] : pos[2] });
      }
      if (pos.length)
        throw new MwsError(
          'usage',
          `mws learned takes no words but "forget" (got "${pos[0]}"): \`mws learned [--tool NAME]\` lists learned words, \`mws learned forget TOOL [WORD]\` forgets them.`,
        );
      return cmd.runLearned(io, { ...common(v), tool: str(v.tool) });
    },
  },
};
