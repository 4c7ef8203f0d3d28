// The one error helper the four meta-tools share: a mistake in the call (a missing name, an unknown
// tool) answered as a tool error the model reads and can act on, never as a protocol error.
import type { CallToolResult } from '@modelcontextprotocol/client';
import { toolError } from '../toolResults.js';
import { noToolNamed } from '../toolbox/notFound.js';

export { toolError };

/** A meta-tool called without the tool name it needs. */
export function missingName(verb: string, what = "the tool's name as search_tools shows it"): CallToolResult {
  return toolError(`${verb} needs "name": ${what}.`);
}

/** No tool by that name: the closest names, and the size of the toolbox searched. */
export function toolNotFound(name: string, matches: string[], toolboxSize: number): CallToolResult {
  return {
    content: [{ type: 'text', text: `tool_not_found: ${noToolNamed(name, matches, { next: 'Use search_tools to find it.' })}` }],
    structuredContent: { error: 'tool_not_found', name, matches, toolboxSize },
    isError: true,
  };
}
