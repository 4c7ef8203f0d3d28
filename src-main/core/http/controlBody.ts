// Body admission for /control: the same bound on JSON values the MCP paths apply (jsonBounds.ts), and
// one on nesting, since no control method takes a value nested more than a few levels deep. Decided on
// the bytes before anything parses them; the answer is the control envelope, so every client reads it.
import { jsonDepth, jsonSeparators, MAX_JSON_VALUES, TOO_MANY_VALUES } from './jsonBounds.js';

/** Deeper than any control method's arguments by far; shallow enough for every recursive walk after. */
export const MAX_CONTROL_DEPTH = 32;

export const TOO_DEEP = `The request nests arrays and objects more than ${MAX_CONTROL_DEPTH} levels deep, so Working Set refused it unread: no control method takes values nested this deep. Send the arguments as the method lists them.`;

function refusal(message: string): Response {
  return new Response(JSON.stringify({ ok: false, error: { code: 'usage', message, data: { reason: 'body_bounds' } } }), {
    status: 413,
    headers: { 'content-type': 'application/json' },
  });
}

/**
 * The request with its body read once and checked, or the 413 that refuses it. A request without a
 * body (GET, HEAD) passes as it is.
 */
export async function admitControlBody(request: Request): Promise<Request | Response> {
  if (request.method === 'GET' || request.method === 'HEAD' || request.body === null) return request;
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (jsonSeparators(bytes) > MAX_JSON_VALUES) return refusal(TOO_MANY_VALUES);
  if (jsonDepth(bytes, MAX_CONTROL_DEPTH) > MAX_CONTROL_DEPTH) return refusal(TOO_DEEP);
  return new Request(request, { body: bytes });
}
