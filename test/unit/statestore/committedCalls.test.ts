// A call acknowledged is a call recorded: on a shared store the answer waits for the record's commit,
// and never for an outage.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchWriter } from '../../../src-main/core/statestore/postgres/batches.js';
import { filesStateStore } from '../../../src-main/core/statestore/files.js';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { createApp, type App } from '../../../src-main/core/app.js';
import { ManualClock } from '../../../src-main/core/clock.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import type { CallRecord } from '../../../src-main/core/usage/callLog.js';
import { TwinUpstream, twinTool } from '../../helpers/twins.js';

const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

/** An insert the test lets through (or fails) by hand. */
function manualInsert() {
  const pending: Array<{ batch: string[]; ok: () => void; fail: (e: Error) => void }> = [];
  const insert = (batch: string[]) => new Promise<void>((ok, fail) => pending.push({ batch, ok, fail }));
  return { pending, insert };
}

describe('BatchWriter: when a record is committed', () => {
  it('answers a promise that resolves only once the insert holding the record has committed', async () => {
    const db = manualInsert();
    const w = new BatchWriter<string>({ what: 'records', insert: db.insert, keyOf: () => 'a', log: new MemoryLogger() });
    let done = false;
    void w.push('one')!.then(() => (done = true));
    await turns();
    expect(db.pending.map((p) => p.batch)).toEqual([['one']]);
    expect(done).toBe(false);
    db.pending[0]!.ok();
    await turns();
    expect(done).toBe(true);
  });

  it('lets the waiting go when the database fails (the record waits on in the queue), and does not hold new ones while it is away', async () => {
    const db = manualInsert();
    const w = new BatchWriter<string>({ what: 'records', insert: db.insert, keyOf: () => 'a', log: new MemoryLogger(), retryMs: 60_000 });
    let done = false;
    void w.push('one')!.then(() => (done = true));
    await turns();
    db.pending[0]!.fail(new Error('connection refused'));
    await turns();
    expect(done).toBe(true);
    expect(w.waiting).toBe(1);
    expect(w.push('two')).toBeUndefined();
    expect(w.waiting).toBe(2);
    const closing = w.close();
    await turns();
    db.pending.at(-1)!.fail(new Error('connection refused'));
    expect(await closing).toBe(2);
  });
});

describe('a tool call on a shared store', () => {
  let app: App | undefined;
  afterEach(async () => {
    await app?.stop();
    app = undefined;
  });

  it('is answered only after its call record is committed', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'mws-commit-'));
    const config = validateConfig({ stateDir, upstreams: { v: { url: 'http://127.0.0.1:1/mcp' } } }, stateDir);
    const log = new MemoryLogger();
    const store = filesStateStore({ stateDir, log, now: () => Date.now() });
    // The shared store's call log, standing in for PostgreSQL's: each record commits when the test says.
    const commits: Array<{ record: CallRecord; commit: () => void }> = [];
    const shared = {
      ...store,
      kind: 'postgres' as const,
      calls: { ...store.calls, call: (record: CallRecord) => new Promise<void>((commit) => commits.push({ record, commit })) },
    };
    const twin = new TwinUpstream('v', [twinTool('echo', true)]);
    app = createApp({ config, clock: new ManualClock(), log, connect: () => twin, stateStore: shared });
    await app.start({ listen: false, schedule: false });
    let answered = false;
    const call = app.router.callTool('default', 'v__echo', {}, { via: 'direct', client: 'test', session: undefined }).then((r) => {
      answered = true;
      return r;
    });
    await turns(20);
    expect(commits.map((c) => c.record.tool)).toEqual(['v__echo']);
    expect(answered).toBe(false);
    commits[0]!.commit();
    expect((await call).isError).toBeUndefined();
    expect(answered).toBe(true);
  });
});
