// Which agent an MCP path names (the forms are declared in config/agentUrl.ts). The listener's gate and
// the route judge the same (URL-normalized, undecoded) path with this one function.
export { agentIdOfPath as agentIdOf } from '../config/agentUrl.js';

export const BAD_PATH = 'Bad request: the path has a malformed %-escape. The MCP endpoint is /mcp (or /mcp/<agent-id>/mcp).';
