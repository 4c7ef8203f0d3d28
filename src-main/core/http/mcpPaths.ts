// Which agent an MCP path names (the forms are declared in config/agentUrl.ts), judged once, at the
// edge (edgeChain.ts), on the URL-normalized, undecoded path; the routes get the answer with the request.
export { agentIdOfPath as agentIdOf } from '../config/agentUrl.js';

export const BAD_PATH = 'Bad request: the path has a malformed %-escape. The MCP endpoint is /mcp (or /mcp/<agent-id>/mcp).';
