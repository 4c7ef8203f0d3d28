// State files that a crash or a hand edit damaged: a wrong shape is moved aside with
// a warning naming the file and rebuilt; a torn last line is dropped before the next append, so the
// next record starts on its own line.
import { afterEach, describe, expect, it } from 'vitest';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setsHarness, type SetsHarness, T0, DAY } from '../../helpers/sets.js';
import { JsonlAppender, dropTornLastLine } from '../../../src-main/core/store/jsonl.js';
import { CallLog } from '../../../src-main/core/usage/callLog.js';

let h: SetsHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const stateDirWith = (files: Record<string, string>) => {
  const dir = mkdtempSync(join(tmpdir(), 'mws-shape-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
};
const history = (...lines: object[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const promoteLine = (tool: string, at = T0 - DAY) => ({
  ts: new Date(at).toISOString(),
  tool,
  action: 'promote',
  cause: 'user',
  vendor: 'v',
});

describe('an agent state file of the wrong shape', () => {
  it.each([
    ['a null tool', '{"tools":{"x":null},"demotedAt":{},"approvals":{}}'],
    ['null approvals', '{"tools":{},"demotedAt":{},"approvals":null}'],
    ['a tool without its fields', '{"tools":{"a":{"vendor":"v"}},"demotedAt":{},"approvals":{}}'],
  ])('with %s is moved aside with a warning naming it, rebuilt from the history, and promotion works', async (_what, text) => {
    const stateDir = stateDirWith({ 'agents/default.json': text, 'agents/default.history.jsonl': history(promoteLine('a')) });
    h = await setsHarness({}, undefined, stateDir);
    const file = join(stateDir, 'agents', 'default.json');
    expect(h.log.lines.join('\n')).toContain(`${file} was damaged; it was moved to ${file}.damaged-`);
    expect(readdirSync(join(stateDir, 'agents')).some((f) => f.startsWith('default.json.damaged-'))).toBe(true);
    expect(h.listed()).toEqual(['a']);
    expect(h.grants.of('default')).toEqual({});
    expect(await h.sets.promote('default', 'b', 'v', 'user')).toBe(true);
    expect(h.listed().sort()).toEqual(['a', 'b']);
  });
});

describe('a usage file of the wrong shape', () => {
  it('("cursors": 5) is moved aside and re-read from the call log, so the cycle still counts usage', async () => {
    const stateDir = stateDirWith({ 'usage.json': '{"version":1,"cursors":5,"agents":{},"tallies":{}}' });
    h = await setsHarness({}, undefined, stateDir);
    expect(h.log.lines.join('\n')).toMatch(/usage\.json was damaged; it was moved to/);
    await h.call('a', { session: 's1' });
    await h.call('a', { session: 's2' });
    await h.sets.cycle(h.clock.now());
    expect(h.usage.tallies('default').a).toEqual({ ok: 2, failed: 0 });
  });

  it('(a null session under a tool) is moved aside too, so the cycle does not fail on it', async () => {
    const stateDir = stateDirWith({ 'usage.json': '{"version":1,"cursors":{},"agents":{"default":{"a":{"s0":null}}},"tallies":{}}' });
    h = await setsHarness({}, undefined, stateDir);
    expect(h.log.lines.join('\n')).toMatch(/usage\.json was damaged; it was moved to/);
    await h.call('a', { session: 's1' });
    await h.call('a', { session: 's2' });
    await h.sets.cycle(h.clock.now());
    expect(h.usage.tallies('default').a).toEqual({ ok: 2, failed: 0 });
  });
});

describe('a torn last line', () => {
  it('is dropped before the next append, so the next history record is kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mws-torn-'));
    const path = join(dir, 'x.history.jsonl');
    writeFileSync(path, history(promoteLine('a')) + '{"ts":"2026-03-01T0');
    const out = new JsonlAppender(path);
    out.append(promoteLine('b'));
    await out.close();
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    expect(lines.map((l) => (JSON.parse(l) as { tool: string }).tool)).toEqual(['a', 'b']);
  });

  it('in calls.jsonl does not swallow the next call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mws-torn-'));
    appendFileSync(join(dir, 'calls.jsonl'), '{"ts":"2026-03-01T09:00:00.000Z","agent":"default","tool":"v__a","via":"direct","ok":tr');
    const log = new CallLog(dir);
    log.call({ ts: new Date(T0).toISOString(), agent: 'default', tool: 'v__b', via: 'direct', ok: true, ms: 1, client: 'c', session: 's' });
    await log.close();
    const lines = readFileSync(join(dir, 'calls.jsonl'), 'utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ tool: 'v__b' });
  });

  it('with no newline at all leaves an empty file; a whole file is left alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mws-torn-'));
    writeFileSync(join(dir, 'a'), '{"half');
    dropTornLastLine(join(dir, 'a'));
    expect(readFileSync(join(dir, 'a'), 'utf8')).toBe('');
    writeFileSync(join(dir, 'b'), '{}\n{}\n');
    dropTornLastLine(join(dir, 'b'));
    expect(readFileSync(join(dir, 'b'), 'utf8')).toBe('{}\n{}\n');
    dropTornLastLine(join(dir, 'missing'));
  });
});

describe('a batch of records (appendAll)', () => {
  it('is written in order after a torn tail, and a bounded file takes it record by record', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mws-batch-'));
    const path = join(dir, 'x.history.jsonl');
    writeFileSync(path, history(promoteLine('a')) + '{"ts":"2026-03-01T0');
    const out = new JsonlAppender(path);
    expect(out.appendAll([promoteLine('b'), promoteLine('c'), promoteLine('d')])).toBe(3);
    expect(out.appendAll([])).toBe(0);
    await out.close();
    const tools = (p: string) =>
      readFileSync(p, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { tool: string }).tool);
    expect(tools(path)).toEqual(['a', 'b', 'c', 'd']);
    // Bounded: each record checks the bound, so the batch moves the file aside where it must.
    const line = JSON.stringify(promoteLine('e')).length + 1;
    const bounded = new JsonlAppender(join(dir, 'calls.jsonl'), { rotate: { to: join(dir, 'calls.1.jsonl'), maxBytes: () => line * 2 } });
    expect(bounded.appendAll(['e', 'f', 'g'].map((t) => promoteLine(t)))).toBe(3);
    await bounded.close();
    expect(tools(join(dir, 'calls.1.jsonl'))).toEqual(['e', 'f']);
    expect(tools(join(dir, 'calls.jsonl'))).toEqual(['g']);
  });

  it('on a full disk is counted dropped, every record of it, and the next batch is tried again', () => {
    const drops: number[] = [];
    const out = new JsonlAppender('/dev/full', { onDrop: (_err, n) => drops.push(n) });
    expect(out.appendAll([promoteLine('a'), promoteLine('b'), promoteLine('c')])).toBe(0);
    expect(out.dropped).toBe(3);
    expect(out.appendAll([promoteLine('d')])).toBe(0);
    expect(drops).toEqual([3, 4]);
    expect(out.lastError?.message).toMatch(/ENOSPC/);
  });
});

describe('a restart after a crash between the history and the set file', () => {
  it('reconciles the set with the history: a recorded promotion is back, a recorded demotion stays out', async () => {
    const set = {
      tools: {
        gone: { vendor: 'v', promotedBy: 'user', promotedAt: T0 - 3 * DAY, lastUsedAt: null },
        kept: { vendor: 'v', promotedBy: 'user', promotedAt: T0 - 3 * DAY, lastUsedAt: null },
      },
      demotedAt: {},
      approvals: {},
    };
    const stateDir = stateDirWith({
      'agents/default.json': JSON.stringify(set),
      'agents/default.history.jsonl': history(
        promoteLine('gone', T0 - 3 * DAY),
        promoteLine('kept', T0 - 3 * DAY),
        { ts: new Date(T0 - DAY).toISOString(), tool: 'gone', action: 'demote', cause: 'user' },
        promoteLine('new', T0 - DAY),
      ),
    });
    h = await setsHarness({}, undefined, stateDir);
    expect(h.listed().sort()).toEqual(['kept', 'new']);
    expect(h.log.lines.join('\n')).toMatch(/2 changes recorded in the history but not in .*default\.json/);
    const onDisk = JSON.parse(readFileSync(join(stateDir, 'agents', 'default.json'), 'utf8')) as { tools: object };
    expect(Object.keys(onDisk.tools).sort()).toEqual(['kept', 'new']);
  });
});
