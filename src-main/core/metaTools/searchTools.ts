// The search_tools meta-tool: argument checks, "promoted" from the agent's list, a search event in the log.
import type { Clock } from '../clock.js';
import type { ToolRouter } from '../proxy/toolRouter.js';
import type { MetaHandler } from './handler.js';
import { toolError } from '../toolResults.js';
import type { CallLog } from '../usage/callLog.js';
import { MAX_SEARCH_LIMIT, type SearchService } from '../search/service.js';

export function searchToolsHandler(deps: { search: SearchService; router: ToolRouter; callLog: CallLog; clock: Clock }): MetaHandler {
  return async (agentId, args, ctx) => {
    const { query, limit } = args;
    if (query !== undefined && typeof query !== 'string') return toolError('search_tools "query" must be a string: what you want to do, a tool name, or a backend name.');
    if (limit !== undefined && (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT)) {
      return toolError(`search_tools "limit" must be a whole number from 1 to ${MAX_SEARCH_LIMIT}.`);
    }
    const listed = new Set(deps.router.workingSetEntries(agentId).map((e) => e.name));
    const answer = deps.search.search(query, limit, (e) => listed.has(e.name), agentId);
    // What the agent calls next tells which of these answered the query (learning.ts).
    deps.search.learning?.searched(agentId, query, answer.names);
    deps.callLog.search({
      ts: new Date(deps.clock.now()).toISOString(),
      event: 'search',
      agent: agentId,
      bytes: Buffer.byteLength(answer.text),
      results: answer.results,
      client: ctx.client,
    });
    return { content: [{ type: 'text', text: answer.text }] };
  };
}
