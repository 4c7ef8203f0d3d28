// `mws learned` as a user runs it: learned words of a running `mws serve` as a table and JSON, one word
// forgotten (and still forgotten after a restart), clear errors for an unknown tool or word, and the
// same commands on the state files when no instance runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, spawnTs, waitForOutput, type Running } from '../helpers/processes.js';
import { connectClient, tempDir, textOf } from '../helpers/app.js';

const MWS = join(ROOT, 'src-main', 'cli', 'run.ts');
const TOOL = 'demo__browser_get_page_text';
let serve: Running;
let cfg: string;

function mws(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const r = spawnTs(MWS, [...args, '--config', cfg]);
  return new Promise((resolve) => r.proc.once('exit', (code) => resolve({ code, out: r.stdout(), err: r.stderr() })));
}

beforeAll(async () => {
  const dir = tempDir();
  cfg = join(dir, 'config.json');
  writeFileSync(
    cfg,
    JSON.stringify({
      upstreams: { demo: { builtin: 'demo' } },
      stateDir: join(dir, 'state'),
      listen: { port: 0 },
      timeouts: { listMs: 20_000 },
    }),
  );
  serve = spawnTs(MWS, ['serve', '--config', cfg]);
  const url = (await waitForOutput(serve, /listening on (http:\/\/\S+\/mcp)/, 'mws serve'))[1]!;
  // An agent searches, then calls the tool it wanted among the hits shown: twice, so the words are well learned.
  const c = await connectClient(url, 'auto', 'cli-learned');
  for (let i = 0; i < 2; i++) {
    textOf(await c.client.callTool({ name: 'search_tools', arguments: { query: 'buy a cheap monitor, read the page text' } }));
    expect((await c.client.callTool({ name: 'call_tool', arguments: { name: TOOL, arguments: {} } })).isError).not.toBe(true);
  }
  await c.close();
}, 120_000);
afterAll(async () => {
  await serve?.kill();
});

// Each `mws` run is a fresh Node process; on a busy 2-core machine a few take seconds each.
const SLOW = { timeout: 180_000 };

describe('mws learned', () => {
  it('lists, forgets one word, refuses unknown names, and keeps what it forgot across a restart', SLOW, async () => {
    const list = await mws(['learned']);
    expect(list.code, list.err).toBe(0);
    expect(list.out).toMatch(new RegExp(`^tool\\s+learned words \\(weight\\)\\n${TOOL}\\s+.*\\bmonitor \\(`));
    expect(list.out).toMatch(/\bbuy \(/);

    // A short name reaches the toolbox's tool; --json is the ControlApi's answer.
    const json = await mws(['learned', '--tool', 'browser_get_page_text', '--json']);
    expect(json.code, json.err).toBe(0);
    const view = JSON.parse(json.out) as { learning: boolean; tools: Array<{ tool: string; words: Array<{ word: string }> }> };
    expect(view.tools[0]!.tool).toBe(TOOL);
    expect(view.tools[0]!.words.map((w) => w.word)).toEqual(expect.arrayContaining(['buy', 'cheap', 'monitor']));

    const forget = await mws(['learned', 'forget', TOOL, 'monitor']);
    expect(forget.code, forget.err).toBe(0);
    expect(forget.out).toMatch(new RegExp(`Forgot "monitor" for ${TOOL} \\(2 searches changed\\)`));
    const after = await mws(['learned', '--tool', TOOL]);
    expect(after.out).not.toMatch(/monitor/);
    expect(after.out).toMatch(/buy \(/);

    // A word the tool was not learned for, and a tool nobody knows: one sentence each, exit 1.
    const word = await mws(['learned', 'forget', TOOL, 'keyboard']);
    expect(word.code).toBe(1);
    expect(word.err).toMatch(new RegExp(`"keyboard" is not a learned word of ${TOOL}; its learned words are: .*buy`));
    // `--tool` names the tool for forget too, as it does for the listing.
    const flagged = await mws(['learned', 'forget', '--tool', TOOL, 'keyboard']);
    expect(flagged.code).toBe(1);
    expect(flagged.err).toMatch(new RegExp(`"keyboard" is not a learned word of ${TOOL}`));
    const tool = await mws(['learned', 'forget', 'no_such_tool']);
    expect(tool.code).toBe(1);
    expect(tool.err).toMatch(
      /No tool named "no_such_tool" in the toolbox, and nothing was learned for it\..*`mws learned` lists the tools with learned words/,
    );
    const long = await mws(['learned', 'forget', TOOL, 'x'.repeat(150)]);
    expect(long.code).toBe(2);
    expect(long.err).toMatch(/"word" must be at most 100 characters/);
    const usage = await mws(['learned', 'forget']);
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/needs a tool name/);

    // Stopped (learned.json written on the way out), the same commands work on the state files.
    await serve.kill();
    const restarted = await mws(['learned', '--tool', TOOL]);
    expect(restarted.code, restarted.err).toBe(0);
    expect(restarted.out).toMatch(/buy \(/);
    expect(restarted.out).not.toMatch(/monitor/);
    // Without an instance the same schema holds the same bound, in the same words (control/contract.ts).
    const longHeadless = await mws(['learned', 'forget', TOOL, 'x'.repeat(150)]);
    expect(longHeadless.code).toBe(2);
    expect(longHeadless.err).toBe(long.err);
    const all = await mws(['learned', 'forget', TOOL]);
    expect(all.code, all.err).toBe(0);
    expect(all.out).toMatch(new RegExp(`Forgot what ${TOOL} was learned for \\(\\d+ searches\\)`));
    expect((await mws(['learned'])).out).toMatch(/Nothing learned yet/);
  });
});
