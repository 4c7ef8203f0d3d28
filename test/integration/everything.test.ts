// A real third-party upstream: @modelcontextprotocol/server-everything over stdio (a 2025-era peer).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { META_TOOL_NAMES } from '../../src-main/core/toolbox/reservedNames.js';
import { connectClient, startApp, textOf, type TestApp, type TestClient } from '../helpers/app.js';

const bin = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
let t: TestApp;
const clients: TestClient[] = [];

beforeAll(async () => {
  t = await startApp({ upstream: { command: process.execPath, args: [bin, 'stdio'] }, pins: ['echo'] });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await t?.stop();
});

it.each(['auto', 'legacy'] as const)('serves a %s client: pinned tools listed, any tool callable', async (mode) => {
  const c = await connectClient(`${t.url}/mcp`, mode);
  clients.push(c);
  const { tools } = await c.client.listTools();
  expect(tools.map((x) => x.name)).toEqual([...META_TOOL_NAMES, 'echo']);
  expect(textOf(await c.client.callTool({ name: 'echo', arguments: { message: 'hello' } }))).toContain('hello');
  expect(textOf(await c.client.callTool({ name: 'get-sum', arguments: { a: 2, b: 40 } }))).toContain('42');
  expect(textOf(await c.client.callTool({ name: 'call_tool', arguments: { name: 'get-sum', arguments: { a: 1, b: 1 } } }))).toContain('2');
  expect(t.app.catalog.statuses()[0]).toMatchObject({ status: 'up', era: '2025-11-25' });
  expect(t.app.catalog.toolbox().size).toBeGreaterThanOrEqual(10);
});
