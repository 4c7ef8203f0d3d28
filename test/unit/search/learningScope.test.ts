// Agents as a boundary for learning: with tokens in use an agent ranks with its own
// pairs only, unless the user shares; even shared, nothing crosses the token line.
import { describe, expect, it } from 'vitest';
import { Toolbox } from '../../../src-main/core/toolbox/toolbox.js';
import { DEMO_TOOLS } from '../../../src-main/core/demo/tools.js';
import { SearchService } from '../../../src-main/core/search/service.js';
import { SearchLearning } from '../../../src-main/core/search/learning.js';
import { evidenceScope, learningPolicy, mayLearnFrom, type LearningPolicyInput } from '../../../src-main/core/search/learningScope.js';

const TOKEN = 'tok-0123456789abcdef';
const box = new Toolbox(new Map([['upstream', [...DEMO_TOOLS]]]), false);

function setup(input: LearningPolicyInput) {
  const cfg = { ...input };
  const learning = new SearchLearning({
    now: () => Date.parse('2026-11-30T00:00:00Z'),
    enabled: () => true,
    policy: () => learningPolicy(cfg),
  });
  const service = new SearchService(() => box, {}, 'bm25f', learning);
  return { learning, service, cfg };
}
const rank = (s: SearchService, q: string, agent: string, tool: string) =>
  s.resolve(q, 50, agent).entries.findIndex((e) => e.name === tool) + 1;

/** The attack of the issue: 40 sessions on the open endpoint teach "send an email to my boss" → mail_get_message. */
function poison(learning: SearchLearning, agent = 'default', tool = 'mail_get_message'): void {
  for (let i = 0; i < 40; i++) {
    learning.searched(agent, 'send an email to my boss', ['mail_send_message']);
    learning.called(agent, tool);
  }
}

describe('the rule: whose evidence an agent may use', () => {
  const agents = [{ id: 'default' }, { id: 'open2' }, { id: 'a', token: TOKEN }, { id: 'b', token: TOKEN }];

  it('shares between all agents while none has a token, and never otherwise unless asked', () => {
    expect(learningPolicy({ agents: [{ id: 'default' }, { id: 'x' }] }).share).toBe(true);
    expect(learningPolicy({ agents }).share).toBe(false);
    expect(learningPolicy({ agents, shareLearning: true }).share).toBe(true);
    expect(learningPolicy({ agents: [{ id: 'default' }], shareLearning: false }).share).toBe(false);
  });

  it('keeps an agent to its own pairs when not sharing', () => {
    const p = learningPolicy({ agents });
    for (const reader of ['default', 'a'])
      for (const owner of ['default', 'open2', 'a', 'b', 'stranger']) expect(mayLearnFrom(reader, owner, p)).toBe(reader === owner);
  });

  it('when shared, never lets evidence cross the token line, either way', () => {
    const p = learningPolicy({ agents, shareLearning: true });
    expect(mayLearnFrom('a', 'b', p)).toBe(true);
    expect(mayLearnFrom('a', 'default', p)).toBe(false);
    expect(mayLearnFrom('a', 'stranger', p)).toBe(false); // an id not in the config is an open agent
    expect(mayLearnFrom('default', 'open2', p)).toBe(true);
    expect(mayLearnFrom('default', 'a', p)).toBe(false);
  });

  it('names equal scopes alike and different ones apart (caches key on it)', () => {
    const p = learningPolicy({ agents, shareLearning: true });
    expect(evidenceScope('a', p).key).toBe(evidenceScope('b', p).key);
    expect(evidenceScope('a', p).key).not.toBe(evidenceScope('default', p).key);
    expect(evidenceScope('a', learningPolicy({ agents })).key).not.toBe(evidenceScope('b', learningPolicy({ agents })).key);
    expect(evidenceScope(undefined, p).everyone).toBe(true);
  });
});

describe('ranking across agents', () => {
  it("the issue's attack: an open agent's 40 searches move nothing for a token-protected agent", () => {
    const { learning, service } = setup({ agents: [{ id: 'default' }, { id: 'a', token: TOKEN }] });
    const before = rank(service, 'send an email to my boss', 'a', 'mail_get_message');
    poison(learning);
    expect(rank(service, 'send an email to my boss', 'default', 'mail_get_message')).toBe(1); // it learns for itself
    expect(rank(service, 'send an email to my boss', 'a', 'mail_get_message')).toBe(before);
    expect(learning.wordsFor('mail_get_message', 'a')).toEqual([]);
    expect(learning.learnedTools('a')).not.toContain('mail_get_message');
  });

  it('with shareLearning on, agents with tokens learn from each other but still not from the open one', () => {
    const { learning, service } = setup({
      agents: [{ id: 'default' }, { id: 'a', token: TOKEN }, { id: 'b', token: TOKEN }],
      shareLearning: true,
    });
    const before = rank(service, 'send an email to my boss', 'a', 'mail_get_message');
    poison(learning, 'default');
    expect(rank(service, 'send an email to my boss', 'a', 'mail_get_message')).toBe(before);
    poison(learning, 'b', 'mail_delete_message');
    expect(rank(service, 'send an email to my boss', 'a', 'mail_delete_message')).toBe(1);
    // and b's searches do not show through the open endpoint
    expect(learning.wordsFor('mail_delete_message', 'default')).toEqual([]);
  });

  it('with no tokens, agents share as before (others at half weight)', () => {
    const { learning, service } = setup({ agents: [{ id: 'default' }, { id: 'x' }] });
    poison(learning, 'x');
    expect(rank(service, 'send an email to my boss', 'default', 'mail_get_message')).toBeLessThanOrEqual(2);
  });

  it('applies a token added later at once (the config is read at each use)', () => {
    const { learning, service, cfg } = setup({ agents: [{ id: 'default' }, { id: 'a' }] });
    poison(learning);
    expect(rank(service, 'send an email to my boss', 'a', 'mail_get_message')).toBeLessThanOrEqual(2);
    cfg.agents = [{ id: 'default' }, { id: 'a', token: TOKEN }];
    expect(rank(service, 'send an email to my boss', 'a', 'mail_get_message')).toBeGreaterThan(2);
  });
});
