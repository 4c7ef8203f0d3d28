// The seed rules as pure functions, each on its own: the listing, usage promotion (sessions counted
// inside it), the session gap, one cycle of the rules deciding without touching the state it is given,
// and the approval grants apart from the working sets.
import { describe, expect, it } from 'vitest';
import { Toolbox } from '../../../src-main/core/toolbox/toolbox.js';
import { countListed, decideListing, listingOrder } from '../../../src-main/core/workingset/listing.js';
import { decideUsagePromotions } from '../../../src-main/core/workingset/usagePromotion.js';
import { decideCycle, type CycleInputs } from '../../../src-main/core/workingset/cycle.js';
import { applyDecision } from '../../../src-main/core/workingset/apply.js';
import { emptyAgentState, type AgentState, type ToolState } from '../../../src-main/core/workingset/types.js';
import { addToRuns, countWorkSessions, SESSION_GAP_MS, type Run } from '../../../src-main/core/usage/sessions.js';
import { ApprovalGrants } from '../../../src-main/core/approvals/grants.js';
import type { PromoteSettings } from '../../../src-main/core/config/schema.js';
import { DAY, T0, tool } from '../../helpers/sets.js';

const member = (promotedAt: number, extra: Partial<ToolState> = {}): ToolState => ({
  vendor: 'v',
  promotedBy: 'agent',
  promotedAt,
  lastUsedAt: null,
  ...extra,
});
const promote: PromoteSettings = { minSessions: 2, minCalls: 2, windowDays: 14, pinDecayDays: 30, keepDays: 30 } as PromoteSettings;

function deepFreeze<T>(o: T): T {
  if (typeof o === 'object' && o !== null) {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}

describe('decideListing, the listing rule', () => {
  const toolbox = new Toolbox(new Map([['v', ['a', 'b', 'c', 'read_graph'].map((n) => tool(n))]]), true);

  it('lists members by promotion time (names tied by name), then fixed pins not yet members: it only grows at the end', () => {
    const tools = { v__c: member(3), v__b: member(5, { pinned: 'file' }), v__a: member(3) };
    expect(listingOrder(['v__read_graph', 'v__a'], tools)).toEqual(['v__a', 'v__c', 'v__b', 'v__read_graph']);
  });

  it('keeps every earlier tool in place when a tool is promoted, a pin is added or a member is pinned (prompt caches keep a prefix)', () => {
    const tools: Record<string, ReturnType<typeof member>> = { v__c: member(3), v__a: member(4) };
    const before = listingOrder([], tools);
    const prefix = (after: string[]) => expect(after.slice(0, before.length)).toEqual(before);
    prefix(listingOrder(['v__read_graph'], tools)); // a new config pin
    prefix(listingOrder([], { ...tools, v__b: member(9) })); // a promotion
    expect(listingOrder([], { ...tools, v__c: member(3, { pinned: 'file' }) })).toEqual(before); // a pin mark
    // The pin once reconciled (a member promoted now) stays where it was shown.
    expect(listingOrder(['v__read_graph'], { ...tools, v__read_graph: member(10, { pinned: 'config' }) })).toEqual(
      listingOrder(['v__read_graph'], tools),
    );
  });

  it('meets the toolbox once: unknown names left out, an upstream-own name resolved, no duplicates', () => {
    const tools = { v__a: member(1), gone__x: member(2), v__read_graph: member(3) };
    expect(decideListing(['read_graph'], tools, toolbox).map((e) => e.name)).toEqual(['v__a', 'v__read_graph']);
    expect(countListed(['read_graph'], tools, toolbox)).toBe(2);
  });

  it('counts what it lists (countListed), whatever the members, pins, unknown names and upstream-own names', () => {
    const names = ['v__a', 'v__b', 'v__c', 'v__read_graph', 'read_graph', 'a', 'gone__x', 'nothing'];
    // A small deterministic generator: every run checks the same 500 cases.
    let seed = 7;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let i = 0; i < 500; i++) {
      const pick = () => names.filter(() => next(3) === 0);
      const tools = Object.fromEntries(pick().map((n) => [n, member(next(5))]));
      const fixed = pick();
      expect(countListed(fixed, tools, toolbox)).toBe(decideListing(fixed, tools, toolbox).length);
    }
  });
});

describe('decideUsagePromotions', () => {
  const known = new Map([
    ['a', 'v'],
    ['b', 'v'],
  ]);
  const now = T0 + 10 * DAY;

  it('counts distinct sessions and calls inside the window, and promotes what passes', () => {
    const usage = {
      a: { s1: { first: now - DAY, last: now - DAY, calls: 1 }, s2: { first: now - 1000, last: now - 1000, calls: 1 } },
      b: { s1: { first: now, last: now, calls: 5 } },
    };
    const r = decideUsagePromotions('default', usage, emptyAgentState(), promote, 21, known, now);
    expect(r.decisions).toEqual([{ agent: 'default', tool: 'a', action: 'promote', cause: 'usage', vendor: 'v' }]);
    expect(r.candidates.find((c) => c.tool === 'b')).toMatchObject({ promote: false, reason: '1 of 2 sessions' });
  });

  it('counts only sessions after the tool last left the set, and a roll-up as its session count', () => {
    const st: AgentState = { ...emptyAgentState(), demotedAt: { a: now - 2 * DAY } };
    const usage = {
      a: {
        s1: { first: now - 3 * DAY, last: now - 3 * DAY, calls: 4 },
        'day:x': { first: now - DAY, last: now - DAY, calls: 3, sessions: 2 },
      },
    };
    const r = decideUsagePromotions('default', usage, st, promote, 21, known, now);
    expect(r.candidates[0]).toMatchObject({ tool: 'a', sessions: 2, calls: 3, promote: true });
  });
});

describe('work sessions, the session rule usage promotion counts by', () => {
  const MIN = 60_000;
  it('joins calls less than the gap apart into one run, in any order, and bridges two runs', () => {
    const runs: Run[] = [];
    addToRuns(runs, T0);
    addToRuns(runs, T0 + SESSION_GAP_MS - 1); // within the gap: the same run
    expect(runs).toEqual([{ first: T0, last: T0 + SESSION_GAP_MS - 1 }]);
    const later = T0 + 2 * SESSION_GAP_MS + 20 * MIN;
    addToRuns(runs, later); // 50 min after the last call: a new run
    addToRuns(runs, T0 - 10 * MIN); // read late (another log): extends the first run backwards
    expect(runs).toEqual([
      { first: T0 - 10 * MIN, last: T0 + SESSION_GAP_MS - 1 },
      { first: later, last: later },
    ]);
    addToRuns(runs, T0 + SESSION_GAP_MS + 25 * MIN); // within the gap of both: one run
    expect(runs).toEqual([{ first: T0 - 10 * MIN, last: later }]);
  });

  it('counts the runs a tool was used in, not its client sessions; entries no run holds are grouped by the gap', () => {
    const runs: Run[] = [];
    for (let m = 0; m <= 60; m += 5) addToRuns(runs, T0 + m * MIN);
    const one = (at: number) => ({ first: at, last: at, calls: 1 });
    // Eight client processes inside that hour: one work session.
    expect(
      countWorkSessions(
        [0, 5, 10, 20, 30, 40, 50, 60].map((m) => one(T0 + m * MIN)),
        runs,
      ),
    ).toBe(1);
    // From before runs were kept: grouped among themselves by the same gap.
    expect(countWorkSessions([one(T0 - DAY), one(T0 - DAY + 10 * MIN), one(T0 - DAY + 2 * SESSION_GAP_MS)], runs)).toBe(2);
    // A roll-up counts its session count.
    expect(countWorkSessions([{ first: T0 - 3 * DAY, last: T0 - 3 * DAY, calls: 9, sessions: 3 }], runs)).toBe(3);
  });
});

describe('decideCycle, one pass of the rules', () => {
  const now = T0 + 30 * DAY;
  const inputs = (o: Partial<CycleInputs> = {}): CycleInputs => ({
    fixed: new Map([['c', 'config']]),
    files: new Map(),
    promote,
    usage: { b: { s1: { first: now - DAY, last: now - DAY, calls: 1 }, s2: { first: now - 1, last: now - 1, calls: 1 } } },
    cap: 20,
    idleWindowDays: 21,
    vendors: new Set(['v']),
    busy: false,
    sweep: true,
    known: new Map([
      ['a', 'v'],
      ['b', 'v'],
      ['c', 'v'],
    ]),
    facts: () => ({ vendor: 'v', lastUsedAt: null }),
    ...o,
  });

  it('decides pins, usage promotions and the sweep without touching the state it is given', () => {
    // `a` was promoted 25 days ago and never used: idle. Frozen: any write to it throws.
    const st = deepFreeze({ ...emptyAgentState(), tools: { a: member(now - 25 * DAY) } });
    const r = decideCycle('default', st, inputs(), now);
    expect(r.pinChanges).toEqual([{ agent: 'default', tool: 'c', action: 'promote', cause: 'pin', vendor: 'v', pinned: 'config' }]);
    expect(r.promotions.map((d) => d.tool)).toEqual(['b']);
    expect(r.demotions.map((d) => `${d.tool}:${d.cause}`)).toEqual(['a:idle']);
  });

  it('lets each step see the ones before it: a tool just promoted by usage counts against the cap', () => {
    const st = { ...emptyAgentState(), tools: { a: member(now - 25 * DAY, { lastUsedAt: now }) } };
    const r = decideCycle('default', st, inputs({ cap: 2, fixed: new Map() }), now);
    expect(r.promotions.map((d) => d.tool)).toEqual(['b']);
    expect(r.demotions).toEqual([]); // two members, cap 2
    const over = decideCycle('default', st, inputs({ cap: 1, fixed: new Map() }), now);
    expect(over.demotions.map((d) => `${d.tool}:${d.cause}`)).toEqual(['b:cap']);
  });

  it('decides nothing in the sweep while demotion is paused', () => {
    const st = { ...emptyAgentState(), tools: { a: member(now - 25 * DAY) } };
    expect(decideCycle('default', st, inputs({ sweep: false }), now).demotions).toEqual([]);
  });

  it('applying its decisions to the real state gives what it decided on its copy', () => {
    const st = { ...emptyAgentState(), tools: { a: member(now - 25 * DAY) } };
    const r = decideCycle('default', st, inputs(), now);
    for (const d of [...r.promotions, ...r.demotions]) applyDecision(st, d, now, () => ({ vendor: 'v', lastUsedAt: null }));
    expect(Object.keys(st.tools)).toEqual(['b']);
    expect(st.demotedAt).toEqual({ a: now });
  });
});

describe('approval grants, apart from the working sets', () => {
  it('grant and withdraw change the agent record and save it', async () => {
    const records: Record<string, Record<string, { hash: string; at: number }>> = { default: {} };
    const saved: string[] = [];
    const g = new ApprovalGrants({ records: (a) => records[a]!, save: async (a) => void saved.push(a) }, () => 42);
    await g.grant('default', 'v__write', 'h1');
    expect(g.of('default')).toEqual({ v__write: { hash: 'h1', at: 42 } });
    await g.withdraw('default', 'v__write');
    expect(g.of('default')).toEqual({});
    expect(saved).toEqual(['default', 'default']);
  });
});
