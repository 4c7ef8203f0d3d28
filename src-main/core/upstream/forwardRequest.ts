// One request of a caller, sent on to the upstream: its result passed back as it is, its progress
// sent on under the caller's token, an input_required left to a caller that can fulfil it.
import type { Client } from '@modelcontextprotocol/client';
import type { CallOptions } from './types.js';
import type { DirectLane } from './directLane.js';

/**
 * A proxy forwards the upstream's result as it is and leaves judging it to the client, so results
 * are not parsed against the result schema here (callTool() would, at a real share of each call's cost).
 */
const PASS_THROUGH = { '~standard': { version: 1 as const, vendor: 'mcp-working-set', validate: (value: unknown) => ({ value }) } };

export async function forwardRequest(
  client: Client,
  method: string,
  params: Record<string, unknown> | undefined,
  opts: CallOptions,
  /** A 2025-era stdio upstream's lane (directLane.ts), taken by each tools/call without a progress token. */
  lane?: DirectLane,
): Promise<Record<string, unknown>> {
  const peer = opts.peer;
  // A 2026-07-28 caller (or the fast path, which serves only those) fulfils an upstream's
  // input_required itself; a 2025 caller cannot, so the upstream client fulfils it through the
  // handlers that route to the caller (PeerRouter).
  const passInputRequired = !peer || peer.modern;
  if (peer?.retry && params) params = { ...params, ...peer.retry };
  const token = peer?.progressToken;
  // Calls only: the SDK's era check of other methods stays with the SDK.
  if (lane && token === undefined && method === 'tools/call')
    return lane.request(method, params, { timeoutMs: opts.timeoutMs, ...(opts.signal ? { signal: opts.signal } : {}) });
  // Progress sent on before the result: the result waits for them, or the last one could arrive
  // after the response stream closed.
  const forwarded: Array<Promise<void>> = [];
  const result = await client.request({ method, ...(params ? { params } : {}) } as never, PASS_THROUGH, {
    timeout: opts.timeoutMs,
    ...(passInputRequired ? { allowInputRequired: true } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
    // The caller's progress token goes upstream as a token of ours; progress comes back under theirs.
    ...(token !== undefined && peer
      ? {
          resetTimeoutOnProgress: true,
          onprogress: (p: Record<string, unknown>) =>
            void forwarded.push(peer.notify({ method: 'notifications/progress', params: { ...p, progressToken: token } }).catch(() => {})),
        }
      : {}),
  });
  if (forwarded.length) await Promise.all(forwarded);
  return result as Record<string, unknown>;
}
