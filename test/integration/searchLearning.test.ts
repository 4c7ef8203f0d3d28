// Learning from use through a real proxy: search_tools, then a call, teaches the query's words to the
// tool; the ControlApi shows and forgets them; `search.learn: false` records nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectClient, startApp, tempDir, textOf, type TestApp, type TestClient } from '../helpers/app.js';
import { ROOT, spawnTs } from '../helpers/processes.js';

let running: Array<TestApp | TestClient> = [];
afterEach(async () => {
  for (const r of running.reverse()) await ('app' in r ? r.stop() : r.close());
  running = [];
});

async function setup(raw: Record<string, unknown> = {}) {
  const app = await startApp({ upstream: { builtin: 'demo' }, ...raw });
  running.push(app);
  const client = await connectClient(`${app.url}/mcp`, 'auto');
  running.push(client);
  const first = async (query: string) =>
    (
      JSON.parse(textOf(await client.client.callTool({ name: 'search_tools', arguments: { query } }))) as {
        results: Array<{ name: string }>;
      }
    ).results[0]?.name;
  return { app, client, first };
}

describe('learning from search → call through the proxy', () => {
  it('learns from search_tools then call_tool, ranks with it, and forgets on request', async () => {
    const { app, client, first } = await setup();
    expect(await first('buy a monitor')).not.toBe('browser_get_page_text');
    // A call teaches only a search that showed the tool (searchPairing.ts): one that did not teaches nothing.
    await first('buy a monitor');
    await client.client.callTool({ name: 'call_tool', arguments: { name: 'browser_get_page_text', arguments: {} } });
    expect((await app.app.control.learnedWords({ tool: 'browser_get_page_text' })).tools[0]!.words).toEqual([]);
    for (let i = 0; i < 2; i++) {
      const shown = JSON.parse(
        textOf(
          await client.client.callTool({ name: 'search_tools', arguments: { query: 'buy a monitor, read the page text', limit: 50 } }),
        ),
      ) as { results: Array<{ name: string }> };
      expect(shown.results.map((x) => x.name)).toContain('browser_get_page_text');
      const r = await client.client.callTool({ name: 'call_tool', arguments: { name: 'browser_get_page_text', arguments: {} } });
      expect(r.isError).not.toBe(true);
    }
    const view = await app.app.control.learnedWords({ tool: 'browser_get_page_text' });
    expect(view.learning).toBe(true);
    expect(view.tools[0]!.words.map((w) => w.word)).toEqual(expect.arrayContaining(['buy', 'monitor']));
    expect(await first('buy a monitor')).toBe('browser_get_page_text');
    const explained = await app.app.control.search({ agent: 'default', query: 'buy a monitor', explain: true });
    expect(explained.explain?.[0]?.matches.some((m) => m.fields.includes('learned words'))).toBe(true);
    expect((await app.app.control.forgetLearned({ tool: 'browser_get_page_text' })).forgotten).toBeGreaterThanOrEqual(2);
    expect((await app.app.control.learnedWords({ tool: 'browser_get_page_text' })).tools[0]!.words).toEqual([]);
    expect(await first('buy a monitor')).not.toBe('browser_get_page_text');
  });

  it('records nothing with search.learn: false', async () => {
    const { app, client, first } = await setup({ search: { learn: false } });
    await first('buy a monitor');
    await client.client.callTool({ name: 'call_tool', arguments: { name: 'browser_get_page_text', arguments: {} } });
    expect(await app.app.control.learnedWords({})).toEqual({ learning: false, tools: [] });
  });

  it('learns from a Claude Code transcript read by the usage cycle', async () => {
    const root = join(tempDir(), 'projects', 'p');
    mkdirSync(root, { recursive: true });
    const use = (at: string, id: string, name: string, input: Record<string, unknown>) =>
      JSON.stringify({
        type: 'assistant',
        sessionId: 's1',
        timestamp: at,
        message: { content: [{ type: 'tool_use', id, name: `mcp__mws__${name}`, input }] },
      });
    writeFileSync(
      join(root, 's1.jsonl'),
      [
        use(new Date().toISOString(), 'u1', 'search_tools', { query: 'buy a monitor' }),
        use(new Date().toISOString(), 'u2', 'call_tool', { name: 'browser_get_page_text', arguments: {} }),
      ].join('\n') + '\n',
    );
    const { app } = await setup({ serverName: 'mws', transcripts: [{ type: 'claude-code', root, agent: 'default' }] });
    await app.app.control.cycle({});
    const view = await app.app.control.learnedWords({ tool: 'browser_get_page_text', agent: 'default' });
    expect(view.tools[0]!.words.map((w) => w.word)).toEqual(expect.arrayContaining(['buy', 'monitor']));
  });

  it('`mws search --explain` names the learned words that matched, as the query wrote them', async () => {
    const dir = tempDir();
    const stateDir = join(dir, 'state');
    mkdirSync(stateDir, { recursive: true });
    const now = Date.now();
    writeFileSync(
      join(stateDir, 'learned.json'),
      JSON.stringify({
        version: 1,
        agents: {
          default: [
            { q: 'buy a monitor', t: 'demo__browser_get_page_text', ts: now },
            { q: 'buy headphones', t: 'demo__browser_get_page_text', ts: now },
          ],
        },
      }),
    );
    const cfg = join(dir, 'config.json');
    writeFileSync(cfg, JSON.stringify({ upstreams: { demo: { builtin: 'demo' } }, stateDir, listen: { port: 0 } }));
    const r = spawnTs(join(ROOT, 'src-main', 'cli', 'run.ts'), ['search', '--config', cfg, '--explain', 'buy a cheap monitor']);
    const code = await new Promise<number | null>((resolve) =>
      r.proc.exitCode !== null ? resolve(r.proc.exitCode) : r.proc.once('exit', resolve),
    );
    expect(code, r.stderr()).toBe(0);
    expect(r.stdout()).toMatch(/1\. demo__browser_get_page_text[\s\S]*buy: learned words[\s\S]*monitor: learned words/);
  });
});
