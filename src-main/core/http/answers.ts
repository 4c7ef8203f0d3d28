// The edge's own answers: a sentence in plain text, or a JSON-RPC error where an MCP client reads one.

export function text(status: number, body: string): Response {
  return new Response(body + '\n', { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

export { jsonRpcError as jsonRpcResponse } from '../protocol.js';
