// Shaping what goes back to agents, in one place for both serving paths: the fast path (fastPath.ts)
// writes the wire answer itself, the SDK's path (agentServer.ts) hands its result to the SDK, which
// stamps the 2026-07-28 fields. Upstream `_meta` scrubbing is shared with passthrough (core/protocol.ts).
import { inputRequired } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { SERVER_META } from './caller.js';

export { stripProtocolMeta } from '../protocol.js';

/** How the caller was reached: in a 2025 session, or by a stateless 2026-07-28 request. */
export type Era = 'session' | 'stateless';

const SERVER_META_JSON = JSON.stringify(SERVER_META);

const AROUND: Record<Era, readonly [string, string]> = {
  session: ['{"tools":', '}'],
  stateless: ['{"tools":', `,"resultType":"complete","ttlMs":0,"cacheScope":"private","_meta":${SERVER_META_JSON}}`],
};

/** A tools/list answer's JSON text before and after the listing's JSON, as the fast path writes it. */
export function listResultAround(era: Era): readonly [string, string] {
  return AROUND[era];
}

/**
 * A tools/call answer as the fast path sends it: to a 2025 session as the upstream gave it; to a
 * stateless request stamped complete with the proxy's `_meta` beside the upstream's. An upstream's
 * input_required answer keeps its resultType: the caller fulfils it and retries.
 */
export function callResult(answer: CallToolResult, era: Era): Record<string, unknown> {
  if (era === 'session') return answer;
  const { _meta: upstreamMeta, ...rest } = answer;
  return { resultType: 'complete', ...rest, _meta: { ...upstreamMeta, ...SERVER_META } };
}

/**
 * A result as the SDK's path returns it (a call, a resource read, a prompt): the SDK stamps the rest, and an upstream's
 * input_required answer (2026-07-28) becomes the SDK's own, for the caller to fulfil and retry.
 */
export function sdkResult<T>(result: T): T {
  const r = result as { resultType?: unknown; inputRequests?: Record<string, unknown>; requestState?: string };
  if (r.resultType !== 'input_required') return result;
  return inputRequired({
    ...(r.inputRequests ? { inputRequests: r.inputRequests as never } : {}),
    ...(r.requestState !== undefined ? { requestState: r.requestState } : {}),
  }) as T;
}
