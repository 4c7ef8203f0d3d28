// The edge's own answers: a sentence in plain text, or a JSON-RPC error where an MCP client reads one.

export function text(status: number, body: string): Response {
  return new Response(body + '\n', { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

export function jsonRpcResponse(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }), { status, headers: { 'content-type': 'application/json' } });
}
