// The floor: a bare loopback HTTP server that answers JSON-RPC by itself, with no MCP machinery.
// No HTTP proxy can be faster than the client's transport round trip to this. It answers
// `server/discover`, so the client speaks 2026-07-28 to it, the same era it speaks to mws.
import { createServer } from 'node:http';

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const msg = JSON.parse(body) as { id?: number | string; method: string };
    if (msg.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    let result: unknown;
    const meta = { 'io.modelcontextprotocol/serverInfo': { name: 'floor', version: '1' } };
    if (msg.method === 'server/discover') {
      result = { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, _meta: meta };
    } else if (msg.method === 'initialize') {
      result = { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'floor', version: '1' } };
    } else if (msg.method === 'tools/call') {
      result = { content: [{ type: 'text', text: '{"id":"m1","content":"Sample mail content."}' }], resultType: 'complete', _meta: meta };
    } else if (msg.method === 'tools/list') {
      result = { tools: [], resultType: 'complete', ttlMs: 0, cacheScope: 'private', _meta: meta };
    } else {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`PORT=${(server.address() as { port: number }).port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
