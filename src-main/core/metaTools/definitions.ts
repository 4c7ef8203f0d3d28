// The four meta-tools every agent always sees. Their descriptions are read by the model on every
// conversation, so they are short and say when to use each.
import type { Tool } from '@modelcontextprotocol/client';

export function metaTools(backendHints: Record<string, string>): Tool[] {
  const hints = Object.entries(backendHints)
    .map(([k, v]) => `${k} (${v})`)
    .join(', ');
  return [
    {
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
    },
    {
      name: 'call_tool',
      description:
        'Run any tool by name, listed or not, exactly as calling it directly would. Use it for a tool found ' +
        'with search_tools. dryRun: true runs read-only tools and previews any other without running it.',
      inputSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'Tool name as search_tools shows it' },
          arguments: { type: 'object', description: "The tool's arguments, per its input schema" },
          dryRun: { type: 'boolean', description: 'Preview instead of running a tool that is not read-only' },
        },
        required: ['name'],
      },
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    },
    {
      name: 'promote',
      description: 'Add a tool to your list so it can be called directly from now on. Answers the new list size.',
      inputSchema: { type: 'object', properties: { name: { type: 'string', description: 'Tool name' } }, required: ['name'] },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    {
      name: 'demote',
      description: 'Remove a tool you no longer need from your list. It stays reachable through search_tools and call_tool.',
      inputSchema: { type: 'object', properties: { name: { type: 'string', description: 'Tool name' } }, required: ['name'] },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
  ];
}
