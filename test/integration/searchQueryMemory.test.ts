// Past requests as vectors through a real proxy and the CLI, with the shipped model: an agent's
// search_tools then call_tool keeps the query's vector with the tool; after a restart, a request in
// other words ranks that tool higher, and `mws search --explain` says which earlier request it was like.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectClient, startApp, tempDir, textOf, type TestApp, type TestClient } from '../helpers/app.js';
import { modelSettled } from '../helpers/model.js';
import { ROOT, exited, spawnTs } from '../helpers/processes.js';
import { QUERY_MEMORY_FILE } from '../../src-main/core/search/queryMemory.js';

let running: Array<TestApp | TestClient> = [];
afterEach(async () => {
  for (const r of running.reverse()) await ('app' in r ? r.stop() : r.close());
  running = [];
});

const TOOL = 'demo__drive_list_permissions';
/** What the agent asked before (each led to TOOL), and the same wish in other words (cosine 0.83 and 0.82). */
const PAST = ['list who has access to the budget sheet', 'which people can see the budget sheet'];
const PARAPHRASE = 'who can open the budget sheet';
const UPSTREAMS = { upstreams: { demo: { builtin: 'demo' } } };

describe('past requests as vectors, as a user runs it', () => {
  it('a search → call keeps the request; after a restart a paraphrase ranks the tool higher and --explain names the request', async () => {
    const stateDir = tempDir();
    const app = await startApp(UPSTREAMS, stateDir);
    running.push(app);
    const client = await connectClient(`${app.url}/mcp`, 'auto', 'e2e-memory');
    running.push(client);
    const search = async (query: string, limit = 8) =>
      (
        JSON.parse(textOf(await client.client.callTool({ name: 'search_tools', arguments: { query, limit } }))) as {
          results: Array<{ name: string }>;
        }
      ).results.map((r) => r.name);
    await search(PARAPHRASE);
    await modelSettled(app.app.control);
    expect((await app.app.control.status({})).semanticSearch?.state).toBe('ready');
    const before = (await search(PARAPHRASE, 50)).indexOf(TOOL) + 1;
    expect(before).not.toBe(1);
    for (const q of PAST) {
      expect(await search(q, 50)).toContain(TOOL);
      const r = await client.client.callTool({ name: 'call_tool', arguments: { name: TOOL, arguments: { fileId: 'budget-2026' } } });
      expect(r.isError, textOf(r)).not.toBe(true);
    }
    const after = (await search(PARAPHRASE, 50)).indexOf(TOOL) + 1;
    expect(after).toBeGreaterThan(0);
    expect(after).toBeLessThan(before);
    await client.close();
    running.pop();
    await app.stop();
    running.pop();
    expect(existsSync(join(stateDir, QUERY_MEMORY_FILE))).toBe(true);

    // A one-off `mws search` on the same state folder reads the kept requests (and the cached tool vectors).
    const cfg = join(tempDir(), 'config.json');
    writeFileSync(cfg, JSON.stringify({ ...UPSTREAMS, stateDir, listen: { port: 0 } }));
    const r = spawnTs(join(ROOT, 'src-main', 'cli', 'run.ts'), ['search', '--config', cfg, '--explain', '--limit', '50', PARAPHRASE]);
    expect(await exited(r, 'mws search --explain', 180_000), r.stderr()).toBe(0);
    const lines = r.stdout().split('\n');
    const at = lines.findIndex((l) => l.includes(`. ${TOOL}  (score`));
    expect(at, r.stdout()).toBeGreaterThanOrEqual(0);
    expect(Number(lines[at]!.trim().split('.')[0])).toBeLessThan(before);
    const block = lines.slice(
      at + 1,
      lines.findIndex((l, i) => i > at && /^\s*\d+\. /.test(l)),
    );
    expect(block.join('\n'), r.stdout()).toMatch(
      /like an earlier request: "(list who has access to the budget sheet|which people can see the budget sheet)"/,
    );
  }, 300_000);
});
