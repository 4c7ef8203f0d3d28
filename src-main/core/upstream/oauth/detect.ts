// Whether an HTTP server that refused us signs in with OAuth (the MCP authorization spec): its 401
// carries a Bearer challenge naming its protected-resource metadata, or that metadata is published at
// the well-known place. Used by Test, which has no sign-in to offer a 401 otherwise.

const DETECT_TIMEOUT_MS = 5_000;

async function answered(url: string, init: RequestInit): Promise<Response | undefined> {
  try {
    const res = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(DETECT_TIMEOUT_MS) });
    return res;
  } catch {
    return undefined;
  }
}

export async function signsInWithOAuth(serverUrl: string): Promise<boolean> {
  const res = await answered(serverUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'mcp-working-set', version: '1' } },
    }),
  });
  await res?.body?.cancel().catch(() => {});
  if (res?.status === 401 && /resource_metadata=/i.test(res.headers.get('www-authenticate') ?? '')) return true;
  const u = new URL(serverUrl);
  const meta = await answered(`${u.origin}/.well-known/oauth-protected-resource${u.pathname.replace(/\/$/, '')}`, { method: 'GET' });
  if (!meta?.ok) {
    await meta?.body?.cancel().catch(() => {});
    return false;
  }
  const text = await meta.text().catch(() => '');
  try {
    const doc = JSON.parse(text.slice(0, 64 * 1024)) as { authorization_servers?: unknown };
    return Array.isArray(doc.authorization_servers) && doc.authorization_servers.length > 0;
  } catch {
    return false;
  }
}
