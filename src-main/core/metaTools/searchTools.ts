// The search_tools meta-tool: argument checks, "promoted" from the agent's list, a search event in the log.
import type { Tool } from '@modelcontextprotocol/client';
import type { Clock } from '../clock.js';
import type { ToolEntry } from '../toolbox/toolbox.js';
import type { CallRecorder } from '../usage/callLog.js';
import { MAX_SEARCH_LIMIT, type SearchService } from '../search/service.js';
import type { MetaHandler } from './handler.js';
import { toolError } from './errors.js';
import type { SearchCallPairing } from './searchPairing.js';

export function searchToolsDefinition(backendHints: Record<string, string>): Tool {
  const hints = Object.entries(backendHints)
    .map(([k, v]) => `${k} (${v})`)
    .join(', ');
  return {
    name: 'search_tools',
    description:
      'Find tools that are not in your list. Give a task in a few words ("share a file", "unread mail"), ' +
      'a tool name for its full schema, or a backend name for all its tools; no query lists every tool by name.' +
      (hints ? ` Backends: ${hints}.` : ''),
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What you want to do, a tool name, or a backend name' },
        limit: { type: 'integer', minimum: 1, maximum: 50, description: 'Most results to return (default 8)' },
      },
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
}

/** `listed`: the entries the agent lists now, so search marks them "promoted". */
export function searchToolsHandler(deps: {
  search: SearchService;
  listed: (agentId: string) => ToolEntry[];
  callLog: CallRecorder;
  clock: Clock;
  pairing?: SearchCallPairing;
}): MetaHandler {
  return async (agentId, args, ctx) => {
    const { query, limit } = args;
    if (query !== undefined && typeof query !== 'string')
      return toolError('search_tools "query" must be a string: what you want to do, a tool name, or a backend name.');
    if (limit !== undefined && (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT)) {
      return toolError(`search_tools "limit" must be a whole number from 1 to ${MAX_SEARCH_LIMIT}.`);
    }
    // A toolbox just changed: wait for its index, built in slices, rather than build it all at once.
    await deps.search.whenBuilt();
    const listed = new Set(deps.listed(agentId).map((e) => e.name));
    // searchAsync: with the hybrid engine and a ready model, the query is embedded first; otherwise it is search().
    const answer = await deps.search.searchAsync(query, limit, (e) => listed.has(e.name), agentId);
    // What the agent calls next tells which of these answered the query (learning.ts).
    deps.search.learning?.searched(agentId, query, answer.names);
    deps.pairing?.searched(agentId, ctx, answer.names);
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
