// Another replica's working-set change is read and applied here; a read that fails is tried again,
// since the notice that asked for it will not come again.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filesStateStore } from '../../../src-main/core/statestore/files.js';
import type { StoreChange } from '../../../src-main/core/statestore/port.js';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { createApp, type App } from '../../../src-main/core/app.js';
import { ManualClock } from '../../../src-main/core/clock.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import { TwinUpstream, twinTool } from '../../helpers/twins.js';
import { until } from '../../helpers/wait.js';
import type { AgentState } from '../../../src-main/core/workingset/types.js';

describe("another replica's change on a shared store", () => {
  let app: App | undefined;
  afterEach(async () => {
    await app?.stop();
    app = undefined;
  });

  it('is read again when the first read fails, and then listed', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'mws-remote-'));
    const config = validateConfig({ stateDir, upstreams: { v: { url: 'http://127.0.0.1:1/mcp' } } }, stateDir);
    const log = new MemoryLogger();
    const store = filesStateStore({ stateDir, log, now: () => Date.now() });
    let notify: (c: StoreChange) => void = () => {};
    let failReads = 0;
    // Stands in for PostgreSQL's: another replica saves through `store.agents`, then notifies.
    const shared = {
      ...store,
      kind: 'postgres' as const,
      agents: {
        ...store.agents,
        load: async (agent: string): Promise<AgentState> => {
          if (failReads > 0) {
            failReads--;
            throw new Error('Connection terminated due to connection timeout');
          }
          return store.agents.load(agent);
        },
        save: (agent: string, st: AgentState) => store.agents.save(agent, st),
      },
      onChange: (l: (c: StoreChange) => void) => {
        notify = l;
        return () => {};
      },
    };
    const twin = new TwinUpstream('v', [twinTool('echo', true)]);
    const clock = new ManualClock();
    app = createApp({ config, clock, log, connect: () => twin, stateStore: shared });
    await app.start({ listen: false, schedule: false });
    await app.router.ready();
    expect(app.sets.members('default').map((m) => m.tool)).toEqual([]);
    // The other replica's promotion, in the store; the first read of it here fails.
    const other = await store.agents.load('default');
    other.tools['v__echo'] = { vendor: 'v', promotedBy: 'user', promotedAt: Date.now(), lastUsedAt: null };
    await store.agents.save('default', other);
    failReads = 1;
    notify({ kind: 'agent', agent: 'default' });
    await until(() => log.lines.some((l) => l.includes('; trying again')), 'the failed read to be told');
    expect(app.sets.members('default')).toEqual([]);
    // The next read comes a second later on the app's clock.
    clock.advance(1_000);
    await until(
      () => app!.sets.members('default').some((m) => m.tool === 'v__echo'),
      'the change read again after the failed read',
      10_000,
    ).catch((e: Error) => {
      throw new Error(`${e.message} ${log.lines.join(' / ')} ${JSON.stringify(app!.sets.members('default'))}`);
    });
    expect(log.lines.join('\n')).toMatch(/could not apply another replica's working-set change: Connection terminated.*; trying again/);
  });
});
