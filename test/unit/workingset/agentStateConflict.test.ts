// A working-set change whose save another replica beat (a conflict from the shared store) is made
// again on a fresh read: both changes are kept, never one written over the other.
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { MwsError } from '../../../src-main/core/errors.js';
import { AgentStates } from '../../../src-main/core/workingset/registry.js';
import type { AgentStateStore } from '../../../src-main/core/workingset/stateFiles.js';
import { emptyAgentState, type AgentState } from '../../../src-main/core/workingset/types.js';
import type { UsageStore } from '../../../src-main/core/usage/usageStore.js';

const tool = (promotedAt: number) => ({ vendor: 'v', promotedBy: 'agent' as const, promotedAt, lastUsedAt: null });

/** A shared store twin: `other` is what another replica saved; the first save here loses the race to it. */
function racingStore(): AgentStateStore & { stored: AgentState; saves: number } {
  let loaded = 0;
  const s = {
    stored: emptyAgentState(),
    saves: 0,
    async load() {
      loaded++;
      return structuredClone(s.stored);
    },
    async save(_agent: string, state: AgentState) {
      s.saves++;
      if (s.saves === 1) {
        // Another replica saved v__theirs between our read and our save.
        s.stored = { ...emptyAgentState(), tools: { v__theirs: tool(2) } };
        throw new MwsError('conflict', 'changed by another replica at the same moment');
      }
      if (loaded < 2) throw new Error('saved without reading again');
      s.stored = structuredClone(state);
    },
    appendHistory() {},
    async readHistory() {
      return [];
    },
    async close() {},
  };
  return s;
}

describe('a working-set change that meets another replica’s save', () => {
  it('is made again on what the store holds now, keeping both', async () => {
    const store = racingStore();
    const config = validateConfig({}, '/tmp/unused');
    const usage = { lastUsed: () => ({}) } as unknown as UsageStore;
    const states = new AgentStates({ config, files: store, usage });
    await states.start();
    await states.change('default', 'the promotion of v__ours', (st) => {
      st.tools.v__ours = tool(3);
      return true;
    });
    expect(Object.keys(store.stored.tools).sort()).toEqual(['v__ours', 'v__theirs']);
    expect(Object.keys(states.state('default').tools).sort()).toEqual(['v__ours', 'v__theirs']);
  });
});
