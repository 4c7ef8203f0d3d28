// The promote and demote meta-tools: the agent moves a tool in or out of its own list. Neither asks
// the user: promotion runs nothing, and demotion deletes nothing.
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { MetaHandler } from './handler.js';
import { toolError } from '../toolResults.js';
import type { Toolbox } from '../toolbox/toolbox.js';
import type { SearchService } from '../search/service.js';
import { MwsError } from '../errors.js';
import type { WorkingSets } from '../workingset/manager.js';

export function toolNotFound(name: string, toolbox: Toolbox, search: SearchService): CallToolResult {
  const matches = search.closeNames(name, 3);
  return {
    content: [{ type: 'text', text: `tool_not_found: no tool named "${name}".${matches.length ? ` Close matches: ${matches.join(', ')}.` : ''} Use search_tools to find it.` }],
    structuredContent: { error: 'tool_not_found', name, matches, toolboxSize: toolbox.size },
    isError: true,
  };
}

export function workingSetMetaTools(sets: WorkingSets, toolbox: () => Toolbox, search: SearchService): { promote: MetaHandler; demote: MetaHandler } {
  const answer = (agent: string, tool: string, inSet: boolean, changed: boolean): CallToolResult => {
    const size = sets.listedCount(agent);
    const cap = sets.agent(agent).cap;
    const payload = { tool, inWorkingSet: inSet, changed, size, cap };
    return { content: [{ type: 'text', text: JSON.stringify(payload) }], structuredContent: payload };
  };
  const target = (args: Record<string, unknown>, verb: string): string | CallToolResult =>
    typeof args.name === 'string' && args.name ? args.name : toolError(`${verb} needs "name": the tool's name as search_tools shows it.`);
  return {
    promote: async (agent, args) => {
      const name = target(args, 'promote');
      if (typeof name !== 'string') return name;
      const entry = toolbox().resolve(name);
      if (!entry) return toolNotFound(name, toolbox(), search);
      const changed = await sets.promote(agent, entry.name, entry.vendor, 'agent');
      return answer(agent, entry.name, true, changed);
    },
    demote: async (agent, args) => {
      const name = target(args, 'demote');
      if (typeof name !== 'string') return name;
      const entry = toolbox().resolve(name);
      const tool = entry?.name ?? name;
      if (!entry && !sets.members(agent).some((m) => m.tool === name)) return toolNotFound(name, toolbox(), search);
      try {
        const changed = await sets.demote(agent, tool, 'agent');
        return answer(agent, tool, false, changed);
      } catch (err) {
        if (err instanceof MwsError) return toolError(err.message);
        throw err;
      }
    },
  };
}
