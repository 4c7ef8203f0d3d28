// Usage promotion counts work sessions a person would call sessions: an hour of trying things with many
// short-lived client processes is one, and a restart of the instance is no quiet moment for changes to
// land in (docs/rules/promotion.md). Time comes from the hand-moved clock; the cycle runs as the schedule does.
import { afterEach, describe, expect, it } from 'vitest';
import { setsHarness, T0, type SetsHarness } from '../../helpers/sets.js';
import { SESSION_GAP_MS } from '../../../src-main/core/usage/sessions.js';

const MIN = 60_000;
let h: SetsHarness;
afterEach(async () => h?.close());

/** The scheduled cycle (whenQuiet), as `tool:action:cause` lines. */
async function scheduled(): Promise<{ done: string[]; held: string[] }> {
  const r = await h.sets.cycle(h.clock.now(), { whenQuiet: true });
  return {
    done: r.decisions.map((d) => `${d.tool}:${d.action}:${d.cause}`),
    held: (r.held ?? []).map((d) => `${d.tool}:${d.action}:${d.cause}`),
  };
}

/** One short-lived client process: its own MCP session and client name, a few calls, then gone. */
async function clientProcess(n: number, tools: string[]): Promise<void> {
  for (const t of tools) {
    await h.call(t, { session: `process-${n}`, client: `inspector-${n}` });
    h.lastSeen.set('default', h.clock.now());
  }
}

describe('promotion by work sessions', () => {
  it('promotes nothing after an hour of trying things in twelve short client processes', async () => {
    h = await setsHarness();
    const done: string[] = [];
    for (let n = 0; n < 12; n++) {
      await clientProcess(n, n % 2 ? ['a', 'b', 'c'] : ['a', 'd']);
      h.clock.advance(5 * MIN); // the schedule's period
      done.push(...(await scheduled()).done);
    }
    h.clock.advance(60 * MIN); // long quiet afterwards
    done.push(...(await scheduled()).done);
    expect(done).toEqual([]);
    expect(h.listed()).toEqual([]);
    const a = h.sets.previewUsage(h.clock.now()).default!.find((c) => c.tool === 'a');
    expect(a).toMatchObject({ sessions: 1, calls: 12, promote: false, reason: '1 of 2 sessions' });
  });

  it('promotes a tool used again in a later work session, however few processes made the calls', async () => {
    h = await setsHarness();
    await clientProcess(1, ['a']);
    h.clock.advance(SESSION_GAP_MS); // half an hour without a call: the next one starts a work session
    await clientProcess(1, ['a']); // the same long-lived client process
    h.clock.advance(15 * MIN);
    expect((await scheduled()).done).toEqual(['a:promote:usage']);
  });

  it('holds what a cycle decides right after a restart until the agent has been quiet since the start', async () => {
    h = await setsHarness({}, undefined, undefined, T0);
    await clientProcess(1, ['a']);
    h.clock.advance(2 * SESSION_GAP_MS);
    await clientProcess(2, ['a']); // a has earned its promotion …
    const stateDir = h.stateDir;
    await h.close();
    // … and the instance restarts a minute later, before any cycle ran; the agent's clients reconnect.
    h = await setsHarness({}, undefined, stateDir, T0 + 2 * SESSION_GAP_MS + MIN);
    expect(await scheduled()).toEqual({ done: [], held: ['a:promote:usage'] });
    h.clock.advance(5 * MIN);
    expect((await scheduled()).done).toEqual([]);
    h.clock.advance(5 * MIN); // quietMinutes (10) since the start, and nothing seen since
    expect((await scheduled()).done).toEqual(['a:promote:usage']);
  });
});
