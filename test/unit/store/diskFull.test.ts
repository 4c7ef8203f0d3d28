// A full disk is an answer, not a lie: a change that could not be saved is not
// applied, the error says so in one sentence with the code disk_full, and call records that could not
// be written are counted.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setsHarness, type SetsHarness } from '../../helpers/sets.js';
import { MwsError } from '../../../src-main/core/errors.js';
import { CallLog } from '../../../src-main/core/usage/callLog.js';
import { JsonlAppender } from '../../../src-main/core/store/jsonl.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import { ApprovalGrants } from '../../../src-main/core/approvals/grants.js';
import { saveFailed } from '../../../src-main/core/store/writeFailure.js';
import { reportError } from '../../../src-main/cli/output.js';
import { dispatch } from '../../../src-main/core/control/envelope.js';
import type { ControlApi } from '../../../src-main/core/control/api.js';

const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

let h: SetsHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Makes the agent state files fail to save while `full` is true. */
function fillDisk(harness: SetsHarness): { full: boolean } {
  const disk = { full: true };
  const save = harness.files.save.bind(harness.files);
  harness.files.save = async (agent, state) => {
    if (disk.full) throw enospc();
    return save(agent, state);
  };
  return disk;
}

describe('a state change on a full disk', () => {
  it('is not applied: promote fails with disk_full, the tool is not listed, no history, nobody told', async () => {
    h = await setsHarness();
    const disk = fillDisk(h);
    const err = await h.sets.promote('default', 'a', 'v', 'agent').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MwsError);
    expect((err as MwsError).code).toBe('disk_full');
    expect((err as MwsError).message).toMatch(
      /^The disk is full: the promotion of a could not be saved in .+, so nothing changed\. Free some space there and try again\.$/,
    );
    expect(h.listed()).toEqual([]);
    expect(h.changed).toEqual([]);
    expect(await h.sets.history('default')).toEqual([]);
    // Space again: the same promotion goes through and is kept.
    disk.full = false;
    expect(await h.sets.promote('default', 'a', 'v', 'agent')).toBe(true);
    expect(h.listed()).toEqual(['a']);
    expect(JSON.parse(readFileSync(join(h.stateDir, 'agents', 'default.json'), 'utf8')).tools.a).toBeDefined();
  });

  it('demote keeps the tool listed when the removal could not be saved', async () => {
    h = await setsHarness();
    await h.sets.promote('default', 'a', 'v', 'agent');
    fillDisk(h);
    await expect(h.sets.demote('default', 'a', 'agent')).rejects.toMatchObject({ code: 'disk_full' });
    expect(h.listed()).toEqual(['a']);
  });

  it('an approval grant that could not be saved is not kept (it would hold only until a restart)', async () => {
    h = await setsHarness();
    fillDisk(h);
    const grants = new ApprovalGrants(
      {
        records: (a) => h!.sets.states.state(a).approvals,
        save: (a) => h!.sets.states.save(a),
        failed: (e, what) => saveFailed(e, what, h!.stateDir),
      },
      () => 1,
    );
    await expect(grants.grant('default', 'a', 'hash1')).rejects.toMatchObject({
      code: 'disk_full',
      message: expect.stringMatching(/the approval of a could not be saved/),
    });
    expect(grants.of('default').a).toBeUndefined();
  });

  it('the control envelope answers disk_full (507), and the CLI one sentence, never "a bug in mws"', async () => {
    const api = { promote: async () => Promise.reject(enospc()) } as unknown as ControlApi;
    const env = await dispatch(api, 'promote', { agent: 'default', tool: 'a' });
    expect(env).toMatchObject({ ok: false, error: { code: 'disk_full' } });
    expect(JSON.stringify(env)).not.toMatch(/bug in mws/);
    const lines: string[] = [];
    expect(reportError({ out: () => {}, err: (s) => lines.push(s) }, enospc())).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^mws: The disk is full: .* so nothing changed\. Free some space there and try again\.$/);
    expect(lines[0]).not.toMatch(/bug|at \w+ \(/);
  });
});

describe('call records on a full disk', () => {
  it('are counted per agent and logged once a minute, and the proxy goes on', () => {
    // /dev/full answers every write with ENOSPC: a real full disk for one file.
    if (!existsSync('/dev/full')) throw new Error('this test needs /dev/full (Linux)');
    const log = new MemoryLogger();
    let now = 0;
    const calls = new CallLog('/dev', { log, now: () => now });
    (calls as unknown as { out: JsonlAppender }).out = new JsonlAppender('/dev/full');
    const rec = (agent: string) => ({
      ts: new Date(0).toISOString(),
      agent,
      tool: 'v__a',
      via: 'direct' as const,
      ok: true,
      ms: 1,
      client: 'c',
      session: null,
    });
    for (let i = 0; i < 5; i++) calls.call(rec('a'));
    calls.call(rec('b'));
    expect(calls.droppedRecords('a')).toBe(5);
    expect(calls.droppedRecords('b')).toBe(1);
    expect(calls.droppedRecords()).toBe(6);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]).toMatch(/1 call record could not be written .*the disk is full/);
    now += 61_000;
    calls.call(rec('a'));
    expect(log.lines).toHaveLength(2);
    expect(log.lines[1]).toMatch(/6 call records could not be written .*7 dropped since start/);
  });
});
