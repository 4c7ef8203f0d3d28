// The working-set rules over time, through the manager, with an injected clock (docs/rules/promotion.md, docs/rules/pins.md, docs/rules/sweep.md, docs/guide/approvals.md).
import { afterEach, describe, expect, it } from 'vitest';
import { appendFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DAY, setsHarness, type SetsHarness } from '../../helpers/sets.js';
import { decideApproval } from '../../../src-main/core/approvals/policy.js';
import { parseTranscriptLine } from '../../../src-main/core/usage/transcripts.js';
import { pinsFromFrontMatter } from '../../../src-main/core/usage/pinFiles.js';
import { readNewLines } from '../../../src-main/core/usage/tail.js';

let h: SetsHarness;
afterEach(() => h?.close());
/** Calls this far apart are in two work sessions (usage/sessions.ts). */
const HOUR = 60 * 60_000;

const cycle = async (dryRun = false) =>
  (await h.sets.cycle(h.clock.now(), { dryRun })).decisions.map((d) => `${d.agent}:${d.tool}:${d.action}:${d.cause}`);

describe('usage promotion', () => {
  it('promotes a tool with successful calls in minSessions distinct sessions within the window', async () => {
    h = await setsHarness();
    await h.call('a', { session: 's1' });
    expect(await cycle()).toEqual([]); // one session is not enough
    h.clock.advance(DAY);
    await h.call('a', { session: 's2' });
    expect(await cycle()).toEqual(['default:a:promote:usage']);
    expect(h.listed()).toEqual(['a']);
    expect(h.sets.members('default')[0]).toMatchObject({ promotedBy: 'usage', lastUsedAt: h.clock.now() });
  });

  it('never counts errors or isError results', async () => {
    h = await setsHarness();
    await h.call('a', { session: 's1', ok: false });
    await h.call('a', { session: 's2', ok: false });
    await h.call('a', { session: 's3' });
    expect(await cycle()).toEqual([]);
  });

  it('splits stateless calls into sessions by a 30-minute gap', async () => {
    h = await setsHarness();
    await h.call('a', { session: null, client: 'codex' });
    h.clock.advance(20 * 60_000);
    await h.call('a', { session: null, client: 'codex' }); // same session: 20 min later
    expect(await cycle()).toEqual([]);
    h.clock.advance(45 * 60_000);
    await h.call('a', { session: null, client: 'codex' }); // a new session
    expect(await cycle()).toEqual(['default:a:promote:usage']);
  });

  it('forgets calls older than the window, and needs minCalls too', async () => {
    h = await setsHarness({ promote: { minSessions: 2, minCalls: 3, windowDays: 30 } });
    await h.call('a', { session: 's1' });
    h.clock.advance(20 * DAY);
    await h.call('a', { session: 's2' });
    expect(await cycle()).toEqual([]); // 2 calls of 3; and the first is outside the idle window of 21 days soon
    await h.call('a', { session: 's2' });
    expect(await cycle()).toEqual(['default:a:promote:usage']);
  });

  it('drops names the upstreams no longer list', async () => {
    h = await setsHarness();
    await h.call('zz', { session: 's1' });
    await h.call('zz', { session: 's2' });
    expect(await cycle()).toEqual([]);
    const row = h.sets.previewUsage(h.clock.now()).default!.find((c) => c.tool === 'zz');
    expect(row?.reason).toBe('no upstream lists it now');
  });

  it('does not re-promote from calls made before the agent or the user demoted it', async () => {
    h = await setsHarness();
    await h.call('a', { session: 's1' });
    await h.call('a', { session: 's2' });
    await cycle();
    await h.sets.demote('default', 'a', 'agent');
    h.clock.advance(60_000);
    expect(await cycle()).toEqual([]);
    await h.call('a', { session: 's3' });
    expect(await cycle()).toEqual([]); // one fresh session of two
    h.clock.advance(HOUR);
    await h.call('a', { session: 's4' });
    expect(await cycle()).toEqual(['default:a:promote:usage']);
  });

  it('keeps each agent to its own calls', async () => {
    h = await setsHarness({ agents: [{ id: 'bot' }] });
    await h.call('a', { session: 's1', agent: 'bot' });
    h.clock.advance(HOUR);
    await h.call('a', { session: 's2', agent: 'bot' });
    expect(await cycle()).toEqual(['bot:a:promote:usage']);
    expect(h.listed('default')).toEqual([]);
    expect(h.listed('bot')).toEqual(['a']);
  });
});

describe('hysteresis', () => {
  it('keeps a tool while it is used, lets it go when idle, and does not flap back from old calls', async () => {
    h = await setsHarness();
    const history: string[] = [];
    const run = async () => history.push(...(await cycle()));
    await h.call('a', { session: 's1' });
    await h.call('a', { session: 's2' });
    await run(); // promoted
    for (let day = 1; day <= 40; day++) {
      h.clock.advance(DAY);
      if (day <= 15 && day % 5 === 0) await h.call('a', { session: `d${day}` }); // used now and then
      await run();
    }
    // Used until day 15, idle 21 days after: demoted on day 36, and never back from the old sessions.
    expect(history).toEqual(['default:a:promote:usage', 'default:a:demote:idle']);
    expect(h.demoted).toEqual([{ agent: 'default', tools: ['a'], cause: 'idle' }]);
  });
});

describe('the sweep through the manager', () => {
  it('demotes idle tools, then the cap, and records history with causes', async () => {
    h = await setsHarness({ agents: [{ id: 'default', cap: 2 }] });
    await h.sets.promote('default', 'a', 'v', 'agent');
    h.clock.advance(DAY);
    await h.sets.promote('default', 'b', 'v', 'user');
    h.clock.advance(DAY);
    await h.sets.promote('default', 'c', 'v', 'agent');
    expect(await cycle()).toEqual(['default:a:demote:cap']);
    h.clock.advance(22 * DAY);
    expect(await cycle()).toEqual(['default:b:demote:idle', 'default:c:demote:idle']);
    const hist = await h.sets.history('default');
    expect(hist.map((e) => `${e.tool}:${e.action}:${e.cause}`)).toEqual([
      'a:promote:agent',
      'b:promote:user',
      'c:promote:agent',
      'a:demote:cap',
      'b:demote:idle',
      'c:demote:idle',
    ]);
  });

  it('skips an agent with a call in flight and decides at the next sweep', async () => {
    h = await setsHarness();
    await h.sets.promote('default', 'a', 'v', 'agent');
    h.clock.advance(30 * DAY);
    h.busy.add('default');
    expect(await cycle()).toEqual([]);
    h.busy.delete('default');
    expect(await cycle()).toEqual(['default:a:demote:idle']);
  });

  it('previews a sweep at any time without changing anything', async () => {
    h = await setsHarness();
    await h.sets.promote('default', 'a', 'v', 'agent');
    expect(h.sets.previewSweep(h.clock.now() + 22 * DAY).map((d) => d.cause)).toEqual(['idle']);
    expect(h.listed()).toEqual(['a']);
    expect(await cycle(true)).toEqual([]);
  });

  it('applies a saved cap at the next sweep', async () => {
    h = await setsHarness({ agents: [{ id: 'default', cap: 1 }] });
    await h.sets.promote('default', 'a', 'v', 'agent');
    await h.sets.promote('default', 'b', 'v', 'agent');
    expect(h.listed()).toEqual(['a', 'b']); // the cap is not checked on promote
    expect(await cycle()).toEqual(['default:a:demote:cap']);
  });

  it('takes the tools of a removed upstream out of every set, cause revoked', async () => {
    h = await setsHarness({ agents: [{ id: 'bot' }] });
    await h.sets.promote('default', 'a', 'v', 'agent');
    await h.sets.promote('bot', 'a', 'v', 'agent');
    await h.close();
    h = await setsHarness({ upstreams: { w: { url: 'http://127.0.0.1:1/mcp' } }, agents: [{ id: 'bot' }] }, undefined, h.stateDir);
    expect((await cycle()).sort()).toEqual(['bot:a:demote:revoked', 'default:a:demote:revoked']);
  });
});

describe('pins', () => {
  it('lists config pins, never demotes them and refuses to demote them on request', async () => {
    h = await setsHarness({ pins: ['b'], agents: [{ id: 'default', pins: ['c'] }] });
    await h.sets.promote('default', 'a', 'v', 'agent');
    expect(h.listed()).toEqual(['a', 'b', 'c']);
    h.clock.advance(400 * DAY);
    expect(await cycle()).toEqual(['default:b:promote:pin', 'default:c:promote:pin', 'default:a:demote:idle']);
    await expect(h.sets.demote('default', 'b', 'agent')).rejects.toThrow(/pinned by the config/);
  });

  it('keeps pin-file pins while used, and lets them decay after pinDecayDays unused', async () => {
    h = await setsHarness();
    const skill = join(h.stateDir, 'skills', 'deploy');
    mkdirSync(skill, { recursive: true });
    writeFileSync(join(skill, 'SKILL.md'), '---\nname: deploy\nworking-set-pins: [d, e]\n---\n# Deploy\n');
    await h.close();
    h = await setsHarness(
      { pinFiles: [join(h.stateDir, 'skills', '*', 'SKILL.md')], promote: { pinDecayDays: 10 } },
      undefined,
      h.stateDir,
    );
    expect(await cycle()).toEqual(['default:d:promote:pin', 'default:e:promote:pin']);
    h.clock.advance(8 * DAY);
    await h.call('d', { session: 'x' });
    h.clock.advance(5 * DAY); // e unused for 13 days: its pin decays; d was used 5 days ago
    expect(await cycle()).toEqual(['default:e:demote:idle']);
    expect(h.sets.members('default').find((m) => m.tool === 'd')?.pinned).toBe('file');
  });

  it('marks a tool already in its set pinned by a pin file without moving it in the listing', async () => {
    h = await setsHarness();
    await h.sets.promote('default', 'a', 'v', 'agent');
    h.clock.advance(1000);
    await h.sets.promote('default', 'b', 'v', 'agent');
    expect(h.listed()).toEqual(['a', 'b']);
    const skill = join(h.stateDir, 'skills', 'deploy');
    mkdirSync(skill, { recursive: true });
    writeFileSync(join(skill, 'SKILL.md'), '---\nname: deploy\nworking-set-pins: [b]\n---\n');
    await h.close();
    h = await setsHarness({ pinFiles: [join(h.stateDir, 'skills', '*', 'SKILL.md')] }, undefined, h.stateDir);
    expect(await cycle()).toEqual([]);
    expect(h.sets.members('default').find((m) => m.tool === 'b')?.pinned).toBe('file');
    // Its place is kept: a reshuffle would cost the agent its prompt cache for nothing.
    expect(h.listed()).toEqual(['a', 'b']);
  });

  it('reads front matter pins inline or as a list', async () => {
    expect(await pinsFromFrontMatter('---\nworking-set-pins: [a, "b"]\n---\n')).toEqual(['a', 'b']);
    expect(await pinsFromFrontMatter('---\ntitle: x\nworking-set-pins:\n  - a\n  - b\nother: 1\n---\nbody')).toEqual(['a', 'b']);
    expect(await pinsFromFrontMatter('no front matter\nworking-set-pins: [a]')).toEqual([]);
  });

  it('reads front matter as YAML: comments, quotes, one name, and pins beside invalid YAML elsewhere', async () => {
    expect(await pinsFromFrontMatter("---\nworking-set-pins: ['a, b', c] # two\n---\n")).toEqual(['a, b', 'c']);
    expect(await pinsFromFrontMatter('---\nworking-set-pins: mail_send\n---\n')).toEqual(['mail_send']);
    expect(await pinsFromFrontMatter('---\r\nworking-set-pins:\r\n  - a # first\r\n  - "b"\r\n---\r\n')).toEqual(['a', 'b']);
    // A skill's description with a bare colon is not valid YAML; the pins entry still is.
    expect(await pinsFromFrontMatter('---\ndescription: Use this: when x\nworking-set-pins:\n  - a\n  - b\n---\n')).toEqual(['a', 'b']);
    expect(await pinsFromFrontMatter('---\nworking-set-pins: {a: 1}\n---\n')).toEqual([]);
  });

  it('a hostile front matter (alias expansion, a huge block) costs little and pins nothing strange', async () => {
    const laughs = [
      'a: &a ["x","x","x","x","x","x","x","x","x","x"]',
      ...Array.from(
        { length: 8 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(',')}]`,
      ),
      'working-set-pins: *i',
    ].join('\n');
    const t0 = performance.now();
    expect(await pinsFromFrontMatter(`---\n${laughs}\n---\n`)).toEqual([]);
    expect(await pinsFromFrontMatter(`---\n${'x: 1\n'.repeat(200_000)}working-set-pins: [a]\n---\n`)).toEqual([]);
    expect(performance.now() - t0).toBeLessThan(5_000);
  });
});

describe('approvals', () => {
  it('decides by mode, read-only hint and the remembered definition hash', () => {
    const w = { name: 'w', readOnly: false, hash: 'h1' };
    expect(decideApproval('ask', { ...w, readOnly: true }, undefined)).toEqual({ kind: 'run' });
    expect(decideApproval('ask', w, undefined)).toEqual({ kind: 'ask', withdrawn: false });
    expect(decideApproval('ask', w, { hash: 'h1' })).toEqual({ kind: 'run' });
    expect(decideApproval('ask', w, { hash: 'h0' })).toEqual({ kind: 'ask', withdrawn: true });
    expect(decideApproval('allow', w, undefined)).toEqual({ kind: 'run' });
    expect(decideApproval('read-only', w, { hash: 'h1' }).kind).toBe('refuse');
  });

  it('survives demotion and re-promotion, and restarts', async () => {
    h = await setsHarness();
    await h.sets.promote('default', 'a', 'v', 'agent');
    await h.grants.grant('default', 'a', 'hash-1');
    await h.sets.demote('default', 'a', 'agent');
    await h.sets.promote('default', 'a', 'v', 'agent');
    await h.close();
    h = await setsHarness({}, undefined, h.stateDir);
    expect(h.grants.of('default').a?.hash).toBe('hash-1');
  });
});

describe('state files', () => {
  it('moves a damaged set file aside and rebuilds the set from the history', async () => {
    h = await setsHarness();
    await h.sets.promote('default', 'a', 'v', 'agent');
    await h.sets.promote('default', 'b', 'v', 'user');
    await h.sets.demote('default', 'a', 'user');
    await h.close();
    writeFileSync(join(h.stateDir, 'agents', 'default.json'), '{"tools": {"b": ');
    h = await setsHarness({}, undefined, h.stateDir);
    expect(h.listed()).toEqual(['b']);
    expect(h.sets.members('default')[0]).toMatchObject({ tool: 'b', promotedBy: 'user', vendor: 'v' });
    expect(readdirSync(join(h.stateDir, 'agents')).some((f) => f.startsWith('default.json.damaged-'))).toBe(true);
    expect(h.log.lines.some((l) => l.includes('rebuilt from its history'))).toBe(true);
  });
});

describe('reading logs incrementally', () => {
  it('reads only what a log gained, waits for a line still being written, and restarts on truncation', async () => {
    h = await setsHarness();
    const f = join(h.stateDir, 'x.jsonl');
    writeFileSync(f, '{"n":1}\n{"n":2}\n');
    const r1 = (await readNewLines(f, undefined))!;
    expect(r1.lines).toHaveLength(2);
    appendFileSync(f, '{"n":3}\n{"n":');
    const r2 = (await readNewLines(f, r1.cursor))!;
    expect(r2.lines).toEqual(['{"n":3}']);
    appendFileSync(f, '4}\n');
    expect((await readNewLines(f, r2.cursor))!.lines).toEqual(['{"n":4}']);
    writeFileSync(f, '{"n":9}\n');
    expect((await readNewLines(f, r2.cursor))!.lines).toEqual(['{"n":9}']);
    expect(await readNewLines(join(h.stateDir, 'none.jsonl'), undefined)).toBeUndefined();
  });

  it('promotes from Claude Code transcripts: successes only, call_tool counted for its target', async () => {
    const root = join((await setsHarness()).stateDir, 'cc');
    h = await setsHarness({ transcripts: [{ type: 'claude-code', root }] });
    mkdirSync(join(root, 'proj'), { recursive: true });
    // The second conversation an hour after the first: another work session.
    const ts = (sessionId: string) => new Date(h.clock.now() - (sessionId === 'S1' ? HOUR : 0)).toISOString();
    const use = (id: string, name: string, sessionId: string, input: object = {}) =>
      JSON.stringify({
        type: 'assistant',
        sessionId,
        timestamp: ts(sessionId),
        message: { content: [{ type: 'tool_use', id, name, input }] },
      });
    const result = (id: string, isError = false) =>
      JSON.stringify({
        type: 'user',
        timestamp: ts('S2'),
        message: { content: [{ type: 'tool_result', tool_use_id: id, is_error: isError }] },
      });
    writeFileSync(
      join(root, 'proj', 'one.jsonl'),
      [
        use('1', 'mcp__toolbox__b', 'S1'),
        result('1'),
        use('2', 'mcp__toolbox__c', 'S1'),
        result('2', true),
        use('3', 'mcp__other__b', 'S1'),
        result('3'),
      ].join('\n') + '\n',
    );
    writeFileSync(
      join(root, 'proj', 'two.jsonl'),
      [use('4', 'mcp__toolbox__call_tool', 'S2', { name: 'b' }), result('4'), use('5', 'mcp__toolbox__c', 'S2'), result('5')].join('\n') +
        '\n',
    );
    expect(await cycle()).toEqual(['default:b:promote:usage']);
    expect(parseTranscriptLine('not json', 'toolbox')).toEqual({ calls: [], results: [] });
  });
});
