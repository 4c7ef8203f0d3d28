// Builds the SDK client transport for each kind of upstream.
import type { Transport } from '@modelcontextprotocol/client';
import { clientSdk } from './clientSdk.js';
import { StdioUpstreamTransport } from './stdioTransport.js';
import type { UpstreamConfig } from '../config/schema.js';
import { MwsError } from '../errors.js';

export type BuiltTransport = { transport: Transport; stderr?: NodeJS.ReadableStream | null; dispose: () => void };

/** An MCP server run in this process for a `builtin` upstream. */
export type BuiltinServer = { connect(transport: Transport): Promise<void>; close(): Promise<void> };

/** Servers run in this process under `kind: "builtin"`, registered by the app (the demo): upstream/ knows none by name. */
const builtins = new Map<string, () => BuiltinServer>();

export function registerBuiltin(name: string, create: () => BuiltinServer): void {
  builtins.set(name, create);
}

/**
 * The SDK's HTTP transport shares one AbortSignal across requests, so a long-lived client piles up abort
 * listeners. Each request gets its own controller instead; `dispose` aborts whatever is still open.
 */
function perRequestSignalFetch(): { fetch: typeof fetch; dispose: () => void } {
  const open = new Set<AbortController>();
  const wrapped: typeof fetch = async (input, init) => {
    const ctrl = new AbortController();
    const outer = init?.signal;
    const onAbort = () => ctrl.abort(outer?.reason);
    if (outer?.aborted) ctrl.abort(outer.reason);
    else outer?.addEventListener('abort', onAbort, { once: true });
    open.add(ctrl);
    try {
      return await fetch(input, { ...init, signal: ctrl.signal });
    } finally {
      open.delete(ctrl);
      outer?.removeEventListener('abort', onAbort);
    }
  };
  return { fetch: wrapped, dispose: () => open.forEach((c) => c.abort()) };
}

export type TransportLimits = { maxResultBytes: number };

export async function buildTransport(cfg: UpstreamConfig, limits: TransportLimits): Promise<BuiltTransport> {
  switch (cfg.kind) {
    case 'http': {
      const { StreamableHTTPClientTransport } = await clientSdk();
      const f = perRequestSignalFetch();
      const transport = new StreamableHTTPClientTransport(new URL(cfg.url), {
        requestInit: { headers: cfg.headers },
        fetch: f.fetch,
      });
      return { transport, dispose: f.dispose };
    }
    case 'stdio': {
      const transport = new StdioUpstreamTransport({ command: cfg.command, args: cfg.args, env: cfg.env, cwd: cfg.cwd, maxMessageBytes: limits.maxResultBytes });
      return { transport, stderr: transport.stderr, dispose: () => {} };
    }
    case 'builtin': {
      const create = builtins.get(cfg.name);
      if (!create) throw new MwsError('upstream_unavailable', `No built-in upstream "${cfg.name}" in this process. Use "demo" with mws serve --demo, or an http or stdio upstream.`);
      const { InMemoryTransport } = await clientSdk();
      const [client, server] = InMemoryTransport.createLinkedPair();
      await create().connect(server);
      return { transport: client, dispose: () => void server.close() };
    }
  }
}
