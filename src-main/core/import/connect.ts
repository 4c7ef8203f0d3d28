// `mws client connect` and `mws client list`: which entries of a client's file reach this instance
// (and which agent), and the file as it should read once it points at one agent. Pure: text in, text
// out; the CLI reads, backs up and writes.
import type { ClientId, FileFormat } from './clients.js';
import { planClientEdit } from './clientEdit.js';
import { readServers, type FoundWithValues } from './read.js';

/** Where this instance listens: the ports (and non-loopback hosts, with publicUrl) a client's URL may name. */
export type Here = { ports: number[]; hosts?: string[] };

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * The agent an endpoint URL of ours names, or undefined when the URL is not ours. Every spelling an
 * agent endpoint has had: `/mcp` (default), `/mcp/<agent>`, and the forms that end in `/mcp`.
 */
export function agentOfUrl(text: string, here: Here): string | undefined {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return undefined;
  }
  if (!/^https?:$/.test(u.protocol)) return undefined;
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  const host = u.hostname.toLowerCase();
  if (!((LOOPBACK.has(host) && here.ports.includes(port)) || here.hosts?.includes(u.host.toLowerCase()))) return undefined;
  const path = u.pathname.replace(/\/+$/, '');
  const m = /^\/mcp(?:\/([^/]+))?(?:\/mcp)?$/.exec(path) ?? /^\/([^/]+)\/mcp$/.exec(path);
  if (!m) return undefined;
  return m[1] === undefined ? 'default' : decodeURIComponent(m[1]);
}

/** The agent an entry reaches (directly, or through a bridge such as mcp-remote), else undefined. */
export function agentOfEntry(s: Pick<FoundWithValues, 'url' | 'args'>, here: Here): string | undefined {
  if (s.url !== null) return agentOfUrl(s.url, here);
  for (const a of s.args) {
    const agent = agentOfUrl(a, here);
    if (agent !== undefined) return agent;
  }
  return undefined;
}

export type Link = { name: string; agent: string; scope: string };

/** The entries of a client file's text that reach this instance. */
export function linksIn(text: string, format: FileFormat, file: string, here: Here): Link[] {
  return readServers(text, format, file).flatMap((s) => {
    const agent = agentOfEntry(s, here);
    return agent === undefined ? [] : [{ name: s.name, agent, scope: s.scope }];
  });
}

export type ConnectPlan = {
  /** The file as it should read; equal to the input when it already points there (nothing to write). */
  text: string;
  changed: boolean;
  /** Other entries that reached this instance and were taken out (their tools would be listed twice). */
  replaced: string[];
  /** False when the file cannot be edited without changing what else it means (Codex's inline tables). */
  editable: boolean;
  summary: string;
};

/**
 * The client's file pointing at `url` under `entryName` (with `headers`, an agent's token), every
 * other entry kept except those that reached this instance already. `text`: the file's text, or
 * undefined when it does not exist yet.
 */
export function planConnect(o: {
  text: string | undefined;
  format: FileFormat;
  client: ClientId;
  file: string;
  entryName: string;
  url: string;
  headers?: Record<string, string>;
  here: Here;
  toolTimeoutSec?: number;
}): ConnectPlan {
  const start =
    o.text ?? (o.format === 'codex-toml' ? '' : o.format === 'servers' ? '{\n  "servers": {}\n}\n' : '{\n  "mcpServers": {}\n}\n');
  const found = readServers(start, o.format, o.file).filter((s) => s.scope === 'user' || s.scope === 'project');
  const ours = found.filter((s) => s.name !== o.entryName && agentOfEntry(s, o.here) !== undefined);
  const plan = planClientEdit({
    text: start,
    format: o.format,
    client: o.client,
    servers: [],
    remove: [...ours, ...found.filter((s) => s.name === o.entryName)],
    entryName: o.entryName,
    url: o.url,
    file: o.file,
    ...(o.toolTimeoutSec !== undefined ? { toolTimeoutSec: o.toolTimeoutSec } : {}),
    ...(o.headers ? { headers: o.headers } : {}),
  });
  if (!plan.editable) return { text: o.text ?? '', changed: false, replaced: [], editable: false, summary: plan.summary };
  // Written the same way twice, the file must not change: compare what it means, not its bytes.
  const same = o.text !== undefined && sameServers(o.text, plan.text, o.format, o.file);
  return {
    text: same ? o.text! : plan.text,
    changed: !same,
    replaced: ours.map((s) => s.name),
    editable: true,
    summary: same
      ? `${o.file} already points "${o.entryName}" at ${o.url}; nothing changed.`
      : `In ${o.file}, "${o.entryName}" now points at ${o.url}${ours.length ? `, in place of ${ours.map((s) => `"${s.name}"`).join(', ')}` : ''}; every other entry is as it was.`,
  };
}

function sameServers(before: string, after: string, format: FileFormat, file: string): boolean {
  const shape = (t: string) => JSON.stringify(readServers(t, format, file).map((s) => [s.name, s.upstream]));
  return before === after || shape(before) === shape(after);
}
