// The promote meta-tool: the agent brings a tool into its own list. It does not ask the user:
// promotion runs nothing.
import type { CallContext } from './handler.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { Toolbox } from '../toolbox/toolbox.js';
import type { SearchService } from '../search/service.js';
import type { WorkingSets } from '../workingset/manager.js';
import type { MetaHandler } from './handler.js';
import { missingName, toolNotFound } from './errors.js';

export const PROMOTE: Tool = {
  name: 'promote',
  description: 'Add a tool to your list so it can be called directly from now on. Answers the new list size.',
  inputSchema: { type: 'object', properties: { name: { type: 'string', description: 'Tool name' } }, required: ['name'] },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

export type WorkingSetToolDeps = {
  sets: WorkingSets;
  toolbox: () => Toolbox;
  search: SearchService;
};

/** What promote and demote answer: where the tool is now and the list's size against the cap. */
export function setAnswer(sets: WorkingSets, agent: string, tool: string, inSet: boolean, changed: boolean): CallToolResult {
  const size = sets.listedCount(agent);
  const cap = sets.agent(agent).cap;
  const payload = { tool, inWorkingSet: inSet, changed, size, cap };
  return { content: [{ type: 'text', text: JSON.stringify(payload) }], structuredContent: payload };
}

/** The tool named in `args`, or the error to answer. */
export function targetName(args: Record<string, unknown>, verb: string): string | CallToolResult {
  return typeof args.name === 'string' && args.name ? args.name : missingName(verb);
}

/** `promoted`: told the tool an agent promoted (a promotion right after a search answers it, as a call does). */
export function promoteHandler(
  deps: WorkingSetToolDeps & { promoted?: (agent: string, tool: string, ctx: CallContext) => void },
): MetaHandler {
  return async (agent, args, ctx) => {
    const name = targetName(args, 'promote');
    if (typeof name !== 'string') return name;
    const entry = deps.toolbox().resolve(name);
    if (!entry) return toolNotFound(name, deps.search.closeNames(name, 3), deps.toolbox().size);
    const changed = await deps.sets.promote(agent, entry.name, entry.vendor, 'agent');
    deps.promoted?.(agent, entry.name, ctx);
    return setAnswer(deps.sets, agent, entry.name, true, changed);
  };
}
