// The four meta-tools every agent always sees, in the order agents list them. Each lives in its own
// file here (definition and handler); their descriptions are read by the model on every conversation,
// so they are short and say when to use each.
import type { Tool } from '@modelcontextprotocol/client';
import { searchToolsDefinition } from './searchTools.js';
import { CALL_TOOL } from './callTool.js';
import { PROMOTE } from './promote.js';
import { DEMOTE } from './demote.js';

export function metaTools(backendHints: Record<string, string>): Tool[] {
  return [searchToolsDefinition(backendHints), CALL_TOOL, PROMOTE, DEMOTE];
}
