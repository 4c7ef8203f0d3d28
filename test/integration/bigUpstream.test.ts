// No size cliff: an upstream that pages its tools/list through hundreds of pages is listed whole.
// (A single reply over the SDK's 10 MB stdio buffer is the stdio transport's limit, maxResultBytes.)
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { UpstreamConnection } from '../../src-main/core/upstream/connection.js';
import { MemoryLogger } from '../../src-main/core/log.js';
import { ROOT } from '../helpers/processes.js';

const MANY = join(ROOT, 'bench', 'fixtures', 'manyTools.mjs');
const LIST_BUDGET_MS = 60_000;
const open: UpstreamConnection[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

function upstream(args: string[]): UpstreamConnection {
  const c = new UpstreamConnection({
    vendor: 'many',
    config: { kind: 'stdio', command: process.execPath, args: [MANY, ...args], env: {}, cwd: undefined },
    log: new MemoryLogger(),
    clientName: 'test',
    now: () => Date.now(),
    connectMs: LIST_BUDGET_MS,
    maxResultBytes: 64 * 1024 * 1024,
    onToolsChanged: () => {},
    onUp: () => {},
  });
  open.push(c);
  return c;
}

describe('a large upstream', () => {
  it(
    'is listed whole when it pages its tools through more pages than the SDK follows by default',
    { timeout: LIST_BUDGET_MS + 10_000 },
    async () => {
      const tools = await upstream(['1500', '10']).listTools(LIST_BUDGET_MS);
      expect(tools).toHaveLength(1500);
      expect(tools.at(-1)!.name).toMatch(/_1499$/);
    },
  );
});
