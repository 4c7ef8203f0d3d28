// The search control methods: a search as the window and the CLI show it (the hits as data beside
// the reply a model reads), and what search learned from the agents' own calls, to read and forget.
import { MwsError } from '../errors.js';
import type { ToolboxCatalog } from '../toolbox/merge.js';
import type { ToolRouter } from '../proxy/toolRouter.js';
import type { SearchService } from '../search/service.js';
import { hitView } from '../search/reply.js';
import { noToolNamed } from '../toolbox/notFound.js';
import type { ControlHandlers } from './contract.js';

export type SearchParts = {
  catalog: ToolboxCatalog;
  router: ToolRouter;
  search: SearchService;
  agentId: (id: string) => string;
};

export function searchControl(p: SearchParts): Pick<ControlHandlers, 'search' | 'learnedWords' | 'forgetLearned'> {
  const { agentId } = p;
  /**
   * The tool whose learned words are asked for: a name pairs were kept under (the tool may have left the
   * toolbox since), else the toolbox's tool for the name as typed (a short name included).
   */
  const learnedTool = (tool: string) => {
    if (p.search.learning?.knows(tool)) return tool;
    const entry = p.catalog.toolbox().resolve(tool);
    if (entry) return entry.name;
    const near = p.search.closeNames(tool, 3);
    throw new MwsError(
      'tool_not_found',
      noToolNamed(tool, near, {
        where: ' in the toolbox, and nothing was learned for it',
        next: '`mws learned` lists the tools with learned words; `mws search` with no query lists the toolbox.',
      }),
      { tool, matches: near },
    );
  };

  return {
    async search(a) {
      const agent = agentId(a.agent);
      const listed = new Set(p.router.workingSetEntries(agent).map((e) => e.name));
      // The same query vector for the reply and its explanation: the window shows what a model would get.
      const qv = await p.search.queryVector(a.query);
      const answer = p.search.search(a.query, a.limit, (e) => listed.has(e.name), agent, qv);
      const explain =
        a.explain === true && typeof a.query === 'string' && a.query.trim() ? p.search.explain(a.query, a.limit, agent, qv) : undefined;
      // The hits as data for the window and the CLI; `text` stays the reply a model reads.
      const tb = p.catalog.toolbox();
      const hits = answer.names.flatMap((n) => {
        const e = tb.get(n);
        return e ? [hitView(e, listed.has(n), false)] : [];
      });
      const near = answer.kind === 'none' && a.query ? p.search.closeNames(a.query.trim(), 3) : [];
      const message =
        answer.kind === 'none'
          ? `No tool matches "${(a.query ?? '').trim()}".${near.length ? ` Close names: ${near.join(', ')}.` : ''}`
          : undefined;
      return {
        text: answer.text,
        bytes: Buffer.byteLength(answer.text),
        kind: answer.kind,
        hits,
        ...(message ? { message } : {}),
        ...(explain ? { explain } : {}),
      };
    },
    async learnedWords(a) {
      const l = p.search.learning;
      if (!l) return { learning: false, tools: [] };
      const agent = a.agent === undefined ? undefined : agentId(a.agent);
      // Every tool search ranks with learned evidence is listed, so each can be forgotten: one a
      // remembered request brings back may have no word trusted yet (a word needs to recur).
      const names = a.tool !== undefined ? [learnedTool(a.tool)] : l.learnedTools(agent);
      return { learning: l.enabled, tools: names.map((tool) => ({ tool, words: l.wordsFor(tool, agent).slice(0, 20) })) };
    },
    async forgetLearned(a) {
      const tool = learnedTool(a.tool);
      const word = a.word;
      return { tool, ...(word !== undefined ? { word } : {}), forgotten: p.search.learning?.forget(tool, word) ?? 0 };
    },
  };
}
