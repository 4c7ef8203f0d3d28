// The demote meta-tool: the agent takes a tool out of its own list. It does not ask the user:
// demotion deletes nothing, and the tool stays reachable through search_tools and call_tool.
import type { Tool } from '@modelcontextprotocol/client';
import { MwsError } from '../errors.js';
import type { MetaHandler } from './handler.js';
import { toolError, toolNotFound } from './errors.js';
import { setAnswer, targetName, type WorkingSetToolDeps } from './promote.js';

export const DEMOTE: Tool = {
  name: 'demote',
  description: 'Remove a tool you no longer need from your list. It stays reachable through search_tools and call_tool.',
  inputSchema: { type: 'object', properties: { name: { type: 'string', description: 'Tool name' } }, required: ['name'] },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

export function demoteHandler(deps: WorkingSetToolDeps): MetaHandler {
  return async (agent, args) => {
    const name = targetName(args, 'demote');
    if (typeof name !== 'string') return name;
    const entry = deps.toolbox().resolve(name);
    const tool = entry?.name ?? name;
    if (!entry && !deps.sets.members(agent).some((m) => m.tool === name))
      return toolNotFound(name, deps.search.closeNames(name, 3), deps.toolbox().size);
    try {
      const changed = await deps.sets.demote(agent, tool, 'agent');
      return setAnswer(deps.sets, agent, tool, false, changed);
    } catch (err) {
      if (err instanceof MwsError) return toolError(err.message);
      throw err;
    }
  };
}
