// A change to one agent's set recomputes that agent's listing only (no code path does work
// proportional to the whole toolbox, or to every agent's set, on a request that concerns one tool).
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { createApp, type App } from '../../../src-main/core/app.js';
import { ManualClock } from '../../../src-main/core/clock.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import { TwinUpstream, twinTool } from '../../helpers/twins.js';

let app: App | undefined;
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

describe("one agent's set change", () => {
  it("recomputes that agent's listing and leaves every other agent's as it was", async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'mws-scope-'));
    const config = validateConfig(
      { stateDir, upstreams: { v: { url: 'http://127.0.0.1:1/mcp' } }, agents: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] },
      stateDir,
    );
    const twin = new TwinUpstream(
      'v',
      Array.from({ length: 20 }, (_, i) => twinTool(`t${i}`)),
    );
    app = createApp({ config, clock: new ManualClock(), log: new MemoryLogger(), connect: () => twin, lock: false });
    await app.start({ listen: false, schedule: false });
    const before = { a: app.router.listTools('a'), b: app.router.listTools('b'), c: app.router.listTools('c') };
    await app.control.promote({ agent: 'a', tool: 'v__t3' });
    const after = { a: app.router.listTools('a'), b: app.router.listTools('b'), c: app.router.listTools('c') };
    expect(after.a.map((t) => t.name)).toContain('v__t3');
    expect(after.a).not.toBe(before.a);
    // The same listing objects: nothing was recomputed for b and c.
    expect(after.b).toBe(before.b);
    expect(after.c).toBe(before.c);
  });
});
