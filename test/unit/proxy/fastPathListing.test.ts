// The fast path writes a tools/list answer as its pieces (envelope, the listing, the envelope's end): the
// bytes must be the answer's JSON with a content-length that counts them, whatever characters the tools
// carry, in both eras.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, request, type Server } from 'node:http';
import type { Tool } from '@modelcontextprotocol/client';
import { createFastPath } from '../../../src-main/core/proxy/fastPath.js';
import type { AgentRuntime } from '../../../src-main/core/proxy/runtime.js';
import { SERVER_META } from '../../../src-main/core/proxy/caller.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

let TOOLS: Tool[] = [];
const SOME: Tool[] = [
  { name: 'café', description: 'Brews ☕ — with "quotes", a \\ and a newline\n', inputSchema: { type: 'object' } },
  { name: 'lone', description: 'a lone surrogate \ud800 and \udfff, JSON-escaped', inputSchema: { type: 'object' } },
  { name: 'emoji', description: '😀 '.repeat(40_000), inputSchema: { type: 'object', properties: { x: { type: 'string' } } } },
  { name: 'plain', inputSchema: { type: 'object' } },
];

const runtime: AgentRuntime = {
  ready: async () => {},
  hasAgent: (id) => id === 'a',
  listTools: () => TOOLS,
  callTool: async () => ({ content: [] }),
  instructions: () => '',
};

/** A loopback listener that hands every request to the fast path, and one raw POST to it. */
async function post(headers: Record<string, string>, body: unknown) {
  const fast = createFastPath(
    runtime,
    () => true,
    () => ({ client: undefined }),
  );
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void fast(req, res, JSON.parse(Buffer.concat(chunks).toString('utf8')), 'a'));
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return new Promise<{ length: string | undefined; bytes: Buffer }>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path: '/mcp', headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ length: res.headers['content-length'], bytes: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** The 2026-07-28 answer, written out here rather than with the code's own envelope pieces. */
const modern = (tools: Tool[], id: string) =>
  `{"result":{"tools":${JSON.stringify(tools)},"resultType":"complete","ttlMs":0,"cacheScope":"private","_meta":${JSON.stringify(SERVER_META)}},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;

describe('a tools/list answer from the fast path', () => {
  it('is the JSON of the answer, its length counted in bytes (2026-07-28)', async () => {
    TOOLS = SOME;
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
    };
    const { length, bytes } = await post(
      { accept: 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      { jsonrpc: '2.0', id: 'l-1', method: 'tools/list', params: { _meta: meta } },
    );
    const expected = modern(TOOLS, 'l-1');
    expect(bytes.toString('utf8')).toBe(expected);
    expect(length).toBe(String(Buffer.byteLength(expected)));
    expect(JSON.parse(bytes.toString('utf8')).result.tools).toEqual(TOOLS);
  });

  it('is the JSON of the answer, its length counted in bytes (a 2025 session)', async () => {
    TOOLS = SOME;
    const { length, bytes } = await post(
      { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18', 'mcp-session-id': 's-1' },
      { jsonrpc: '2.0', id: 7, method: 'tools/list' },
    );
    const expected = `{"result":{"tools":${JSON.stringify(TOOLS)}},"jsonrpc":"2.0","id":7}`;
    expect(bytes.toString('utf8')).toBe(expected);
    expect(length).toBe(String(Buffer.byteLength(expected)));
  });

  it('is an empty list when the agent lists nothing, in both eras', async () => {
    TOOLS = [];
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
    };
    const now = await post(
      { accept: 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      { jsonrpc: '2.0', id: 'e', method: 'tools/list', params: { _meta: meta } },
    );
    expect(now.bytes.toString('utf8')).toBe(modern([], 'e'));
    expect(now.length).toBe(String(now.bytes.length));
    await new Promise<void>((r) => server!.close(() => r()));
    const old = await post(
      { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18', 'mcp-session-id': 's-1' },
      { jsonrpc: '2.0', id: 0, method: 'tools/list' },
    );
    expect(old.bytes.toString('utf8')).toBe('{"result":{"tools":[]},"jsonrpc":"2.0","id":0}');
    expect(old.length).toBe(String(old.bytes.length));
  });
});
