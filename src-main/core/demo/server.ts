// The demo toolbox as an MCP server (low-level Server: the tool objects are data, not registrations).
import { Server } from '@modelcontextprotocol/server';
import type { Tool } from '@modelcontextprotocol/client';
import { DEMO_TOOLS } from './tools.js';
import { demoAnswer } from './answers.js';

export function createDemoServer(tools: readonly Tool[] = DEMO_TOOLS): Server {
  const server = new Server({ name: 'working-set-demo', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  const byName = new Map(tools.map((t) => [t.name, t]));
  server.setRequestHandler('tools/list', async () => ({ tools: [...tools] }));
  server.setRequestHandler('tools/call', async (req) => {
    if (!byName.has(req.params.name)) {
      return { content: [{ type: 'text', text: `Unknown tool: ${req.params.name}` }], isError: true };
    }
    return demoAnswer(req.params.name, req.params.arguments ?? {});
  });
  return server;
}
