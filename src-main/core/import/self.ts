// Working Set's own entries in a client's config, so import never offers them: importing the proxy into
// itself puts toolbox__search_tools into the toolbox (a loop). An entry is ours when it is named as
// this config's serverName, or reaches an agent endpoint of ours (/mcp, /mcp/<agent>/mcp, /mcp/<agent>) on a loopback
// host at a port we are or were configured with, directly or through `npx -y mcp-remote <url>`.
import type { FoundServer } from './types.js';
import { agentIdOfPath } from '../config/agentUrl.js';

export type SelfKnowledge = { serverName: string; ports: number[] };

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

function isOurUrl(text: string, self: SelfKnowledge): boolean {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return false;
  }
  if (!/^https?:$/.test(u.protocol) || !LOOPBACK.has(u.hostname)) return false;
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  return self.ports.includes(port) && agentIdOfPath(u.pathname) != null;
}

/** Why `s` is Working Set itself, or undefined when it is another server. */
export function ownEntry(s: Pick<FoundServer, 'name' | 'url' | 'command' | 'args'>, self: SelfKnowledge): string | undefined {
  if (s.url !== null && isOurUrl(s.url, self)) return `it is Working Set itself (${s.url})`;
  if (s.command !== null && s.args.some((a) => isOurUrl(a, self)))
    return 'it is Working Set itself, reached through a bridge such as mcp-remote';
  if (s.name === self.serverName) return `it is named "${self.serverName}", the name Working Set gives its own entry`;
  return undefined;
}
