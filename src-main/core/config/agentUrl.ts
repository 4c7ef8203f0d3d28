// The forms of an agent's endpoint, both ways: the one Working Set prints and writes, and the paths it
// serves. The printed form always ends in /mcp, because some clients (the MCP Inspector) rewrite a URL
// whose path does not and then silently reach the default agent; `/mcp/<id>` is still served for
// configs written before.
import { DEFAULT_AGENT_ID } from './configSchema.js';

/** The path of an agent's endpoint: `/mcp` for the default agent, `/mcp/<id>/mcp` for the others. */
export function agentPath(agentId: string): string {
  return agentId === DEFAULT_AGENT_ID ? '/mcp' : `/mcp/${encodeURIComponent(agentId)}/mcp`;
}

/** The agent's endpoint on `base` (an origin such as http://127.0.0.1:4484). */
export function agentUrl(base: string, agentId: string): string {
  return `${base.replace(/\/+$/, '')}${agentPath(agentId)}`;
}

/** `/mcp`, `/mcp/<id>` and `/mcp/<id>/mcp`, each with an optional trailing slash and query. */
const MCP_PATH = /^\/mcp(?:\/([^/?#]+)(?:\/mcp)?)?\/?(?:\?.*)?$/;

/** The agent a (URL-normalized, undecoded) path names; undefined when it is no MCP path; null when its escapes are malformed (`/mcp/%`). */
export function agentIdOfPath(path: string): string | null | undefined {
  const m = MCP_PATH.exec(path);
  if (!m) return undefined;
  if (!m[1]) return DEFAULT_AGENT_ID;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return null;
  }
}
