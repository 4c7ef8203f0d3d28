// Which agent an MCP path names: `/mcp` for the default agent, `/mcp/<agent-id>` for the others. The
// listener's gate and the route judge the same (URL-normalized, undecoded) path with this one function.
import { DEFAULT_AGENT_ID } from '../config/schema.js';

const MCP_PATH = /^\/mcp(?:\/([^/?#]+))?\/?(?:\?.*)?$/;

export const BAD_PATH = 'Bad request: the path has a malformed %-escape. The MCP endpoint is /mcp (or /mcp/<agent-id>).';

/** The agent an MCP path names; undefined when it is no MCP path; null when its escapes are malformed (`/mcp/%`). */
export function agentIdOf(path: string): string | null | undefined {
  const m = MCP_PATH.exec(path);
  if (!m) return undefined;
  if (!m[1]) return DEFAULT_AGENT_ID;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return null;
  }
}
