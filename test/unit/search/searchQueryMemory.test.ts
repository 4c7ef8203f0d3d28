// Learning from the agent's past requests as vectors, against a twin of the model:
// vectors from a table of meanings, so two requests can share no word and still mean the same. A past
// request that led to a tool lifts it for a paraphrase; another agent's does not unless learning is
// shared; only pairs learning keeps teach; the memory is bounded and survives a restart.
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { Toolbox, type ToolEntry } from '../../../src-main/core/toolbox/toolbox.js';
import { SearchService } from '../../../src-main/core/search/service.js';
import { SearchLearning, type QueryVector } from '../../../src-main/core/search/learning.js';
import { learningPolicy, type LearningPolicyInput } from '../../../src-main/core/search/learningScope.js';
import { MAX_QUERIES_PER_AGENT, MAX_QUERIES_TOTAL, QUERY_MEMORY_FILE, QueryMemory } from '../../../src-main/core/search/queryMemory.js';
import type { SemanticVectors } from '../../../src-main/core/search/denseIndex.js';
import { splitWords } from '../../../src-main/core/search/text.js';
import { tempDir } from '../../helpers/app.js';

const tool = (name: string, description: string): Tool => ({ name, description, inputSchema: { type: 'object', properties: {} } });
const tools = [
  tool('desk_sticky', 'Creates a sticky note on the desktop'),
  tool('journal_add', 'Adds a note to the journal'),
  tool('mail_send', 'Sends an email message'),
  tool('files_upload', 'Uploads a file to storage'),
];
/** The twin's meanings: [axis, weight] per word. "jot", "memo", "scribble" mean one thing no tool names. */
const MEANING: Record<string, [number, number]> = {
  jot: [0, 1],
  memo: [0, 1],
  scribble: [0, 1],
  note: [1, 0.3],
  sticky: [1, 1],
  desktop: [1, 1],
  journal: [2, 1],
  entry: [2, 1],
  mail: [3, 1],
  email: [3, 1],
  message: [3, 1],
  file: [4, 1],
  upload: [4, 1],
  storage: [4, 1],
};
const DIM = 6;
function vec(text: string): Float32Array {
  const v = new Float32Array(DIM);
  for (const w of splitWords(text)) {
    const m = MEANING[w];
    if (m) v[m[0]]! += m[1];
    else v[5]! += 0.05;
  }
  const n = Math.hypot(...v) || 1;
  return v.map((x) => x / n);
}
class TwinVectors implements SemanticVectors {
  embedded: string[] = [];
  ready = () => true;
  activate() {}
  vector = (e: ToolEntry) => vec(`${e.remoteName} ${e.tool.description}`);
  async embedQuery(text: string) {
    this.embedded.push(text);
    return vec(text);
  }
  model = () => 'twin';
}
const box = new Toolbox(new Map([['catalog', tools]]), false);
const NOW = Date.parse('2026-11-30T12:00:00Z');
const vectorOf = (q: string): QueryVector => ({ v: vec(q), model: 'twin' });

function setup(policy?: LearningPolicyInput, stateDir?: string) {
  const twin = new TwinVectors();
  const learning = new SearchLearning({
    now: () => NOW,
    enabled: () => true,
    vectorOf,
    ...(policy ? { policy: () => learningPolicy(policy) } : {}),
    ...(stateDir ? { stateDir } : {}),
  });
  const service = new SearchService(() => box, {}, 'hybrid', learning, twin);
  const rank = async (q: string, agent: string, name = 'journal_add') =>
    (await service.resolveAsync(q, 4, agent)).entries.findIndex((e) => e.name === name) + 1;
  /** The agent searched and then called the tool the search showed (what the proxy learns from). */
  const used = (agent: string, query: string, tool: string) => {
    learning.searched(agent, query, [tool]);
    learning.called(agent, tool);
  };
  return { learning, service, rank, used, twin };
}

const PARAPHRASE = 'jot a note down';
const PAST = ['write a quick memo', 'scribble something', 'memo to self'];

describe('past requests as vectors', () => {
  it('a paraphrase of earlier requests lifts the tool they led to (no word in common)', async () => {
    const { rank, used } = setup();
    const before = await rank(PARAPHRASE, 'a');
    expect(before).toBeGreaterThan(1);
    used('a', PAST[0]!, 'journal_add');
    const once = await rank(PARAPHRASE, 'a');
    expect(once).toBeLessThanOrEqual(before);
    for (const q of PAST.slice(1)) used('a', q, 'journal_add');
    expect(await rank(PARAPHRASE, 'a')).toBe(1);
    // A request that means something else is not moved.
    expect(await rank('send an email message', 'a', 'mail_send')).toBe(1);
  });

  it('--explain says which earlier request it was like', async () => {
    const { service, used } = setup();
    for (const q of PAST) used('a', q, 'journal_add');
    const qv = await service.queryVector(PARAPHRASE);
    const hit = service.explain(PARAPHRASE, 4, 'a', qv).find((h) => h.tool === 'journal_add')!;
    expect(hit.matches.map((m) => m.via)).toContainEqual(
      expect.stringMatching(/^like an earlier request: "(write a quick memo|scribble something|memo to self)"/),
    );
  });

  it("another agent's history does not move an agent behind a token, unless learning is shared", async () => {
    const agents = [
      { id: 'a', token: 'tok-aaaaaaaaaaaaaaaa' },
      { id: 'b', token: 'tok-bbbbbbbbbbbbbbbb' },
    ];
    const apart = setup({ agents });
    const before = await apart.rank(PARAPHRASE, 'b');
    for (const q of PAST) apart.used('a', q, 'journal_add');
    expect(await apart.rank(PARAPHRASE, 'a')).toBe(1);
    expect(await apart.rank(PARAPHRASE, 'b')).toBe(before);

    const shared = setup({ agents, shareLearning: true });
    for (const q of PAST) shared.used('a', q, 'journal_add');
    expect(await shared.rank(PARAPHRASE, 'b')).toBeLessThan(before);
    // Sharing never crosses the token line: the open default agent sees nothing of 'a'.
    expect(await shared.rank(PARAPHRASE, 'default')).toBe(before);
  });

  it('learns only from pairs learning keeps: a call long after the search, or with learning off, keeps no vector', async () => {
    let now = NOW;
    let on = true;
    const learning = new SearchLearning({ now: () => now, enabled: () => on, vectorOf });
    learning.searched('a', PAST[0], ['journal_add']);
    now += 11 * 60_000; // past the learning window
    learning.called('a', 'journal_add');
    on = false;
    learning.searched('a', PAST[1], ['journal_add']);
    learning.called('a', 'journal_add');
    expect(learning.memory.counts()).toEqual({});
    on = true;
    // The ignored first hit is counted against in words, but its request does not become its vector.
    learning.searched('a', PAST[2], ['desk_sticky', 'journal_add']);
    learning.called('a', 'journal_add');
    expect(learning.memory.counts()).toEqual({ a: 1 });
    expect(learning.earlierRequests(vectorOf(PARAPHRASE), PARAPHRASE, 'a')?.has('desk_sticky')).toBeFalsy();
    // Forgetting the tool forgets its requests too.
    learning.forget('journal_add');
    expect(learning.memory.counts()).toEqual({});
  });

  it('a pair forgotten while its vector is being computed leaves no request behind', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const learning = new SearchLearning({ now: () => NOW, enabled: () => true, vectorOf: async (q) => (await gate, vectorOf(q)) });
    learning.searched('a', PAST[0], ['journal_add']);
    learning.called('a', 'journal_add');
    learning.forget('journal_add');
    release();
    await gate;
    await new Promise((r) => setImmediate(r));
    expect(learning.memory.counts()).toEqual({});
  });

  it('is bounded per agent and in all, newest kept', () => {
    const m = new QueryMemory({ now: () => NOW });
    for (let i = 0; i < MAX_QUERIES_PER_AGENT + 50; i++)
      m.remember('a', `request number w${i}x`, 'journal_add', vec('memo'), 'twin', NOW + i);
    expect(m.counts()).toEqual({ a: MAX_QUERIES_PER_AGENT });
    const agents = Math.ceil(MAX_QUERIES_TOTAL / MAX_QUERIES_PER_AGENT) + 2;
    for (let a = 0; a < agents; a++)
      for (let i = 0; i < MAX_QUERIES_PER_AGENT; i++)
        m.remember(`agent${a}`, `request w${i}x`, 'journal_add', vec('memo'), 'twin', NOW + i);
    const total = Object.values(m.counts()).reduce((x, y) => x + y, 0);
    expect(total).toBe(MAX_QUERIES_TOTAL);
    // The same request to the same tool again is one entry, refreshed.
    const one = new QueryMemory({ now: () => NOW });
    for (let i = 0; i < 5; i++) one.remember('a', 'Write a quick memo', 'journal_add', vec('memo'), 'twin');
    expect(one.counts()).toEqual({ a: 1 });
    // So is one that differs only in a quoted argument (the model reads it without the quote), the newest kept;
    // another tool, or other words, is another entry.
    for (const title of ['"Oslo"', '"Lima"', '“Tokyo”'])
      one.remember('a', `Write a quick memo titled ${title}`, 'journal_add', vec('memo'), 'twin');
    expect(one.counts()).toEqual({ a: 2 });
    one.remember('a', 'Write a quick memo titled "Oslo"', 'notes_add', vec('memo'), 'twin');
    one.remember('a', 'Write a long memo titled "Oslo"', 'journal_add', vec('memo'), 'twin');
    expect(one.counts()).toEqual({ a: 4 });
  });

  it('a request that differs from an earlier one only in its quoted argument is like it (the same tool is lifted)', () => {
    const m = new QueryMemory({ now: () => NOW });
    m.remember('a', 'Write a quick memo titled "Oslo"', 'journal_add', vec('memo'), 'twin');
    const near = m.nearestPerTool(
      vec('memo'),
      'Write a quick memo titled "Lima"',
      'a',
      { everyone: false, key: 'a', includes: () => false },
      'twin',
    );
    expect(near?.get('journal_add')?.query).toBe('Write a quick memo titled "Oslo"');
    // The very same request is not "like" itself: the remembered request answers it (learnedEvidence.ts).
    expect(
      m.nearestPerTool(vec('memo'), 'Write a quick memo titled "Oslo"', 'a', { everyone: false, key: 'a', includes: () => false }, 'twin'),
    ).toBeUndefined();
  });

  it('survives a restart (atomic file in the state folder); a damaged or foreign file is not trusted', async () => {
    const dir = tempDir();
    const first = setup(undefined, dir);
    for (const q of PAST) first.used('a', q, 'journal_add');
    await first.learning.flush();
    const raw = JSON.parse(readFileSync(join(dir, QUERY_MEMORY_FILE), 'utf8')) as { model: string; agents: Record<string, unknown[]> };
    expect(raw.model).toBe('twin');
    expect(raw.agents.a).toHaveLength(3);

    const again = setup(undefined, dir);
    await again.learning.load();
    expect(again.learning.memory.counts()).toEqual({ a: 3 });
    expect(await again.rank(PARAPHRASE, 'a')).toBe(1);

    // Vectors of the wrong size, a bad scale, junk: each left out, nothing thrown.
    writeFileSync(
      join(dir, QUERY_MEMORY_FILE),
      JSON.stringify({
        version: 1,
        model: 'twin',
        dim: DIM,
        agents: {
          a: [
            { q: 'x y', t: 'journal_add', ts: NOW, v: 'AAAA', s: 1 },
            { q: 'memo', t: 'journal_add', ts: NOW, v: Buffer.alloc(DIM).toString('base64'), s: -1 },
            42,
            null,
          ],
          b: 'nope',
        },
      }),
    );
    const damaged = setup(undefined, dir);
    await damaged.learning.load();
    expect(damaged.learning.memory.counts()).toEqual({});
    writeFileSync(join(dir, QUERY_MEMORY_FILE), '{"version":1,');
    const torn = setup(undefined, dir);
    await expect(torn.learning.load()).resolves.toBeUndefined();
    expect(torn.learning.memory.counts()).toEqual({});
  });

  it("another model's vectors are not compared with this one's queries", () => {
    const m = new QueryMemory({ now: () => NOW });
    m.remember('a', PAST[0]!, 'journal_add', vec(PAST[0]!), 'twin');
    const scope = { everyone: true, key: '*' } as const;
    expect(m.nearestPerTool(vec(PARAPHRASE), PARAPHRASE, 'a', scope, 'twin')?.get('journal_add')).toBeDefined();
    expect(m.nearestPerTool(vec(PARAPHRASE), PARAPHRASE, 'a', scope, 'other-model')).toBeUndefined();
  });
});

describe('query vectors are computed only when they count', () => {
  it('an exact tool name is not embedded', async () => {
    const { service, twin } = setup();
    await service.resolveAsync('mail_send', 4, 'a');
    expect(twin.embedded).toEqual([]);
    await service.resolveAsync('send an email', 4, 'a');
    expect(twin.embedded).toEqual(['send an email']);
  });
});
