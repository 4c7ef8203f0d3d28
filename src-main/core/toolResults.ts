// Tool results Working Set answers itself: a refusal or a mistake as a tool error the model reads,
// and a JSON answer. Approvals, the meta-tools and the router all answer with these.
import type { CallToolResult } from '@modelcontextprotocol/client';

export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

export function toolJson(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }] };
}
