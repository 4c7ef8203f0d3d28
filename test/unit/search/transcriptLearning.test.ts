// Learning from Claude Code transcripts: the usage cycle's transcript read also yields search→call
// pairs, bounded, and reading the same lines again (cursors started over) learns nothing twice.
import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageStore, USAGE_FILE } from '../../../src-main/core/usage/usageStore.js';
import { SearchLearning } from '../../../src-main/core/search/learning.js';
import { firstHitOf, transcriptLearner } from '../../../src-main/core/search/transcriptPairs.js';
import { silentLogger } from '../../../src-main/core/log.js';
import { tempDir } from '../../helpers/app.js';

const use = (session: string, at: string, id: string, name: string, input: Record<string, unknown>) =>
  JSON.stringify({
    type: 'assistant',
    sessionId: session,
    timestamp: at,
    message: { content: [{ type: 'tool_use', id, name: `mcp__mws__${name}`, input }] },
  });
const result = (session: string, at: string, id: string) =>
  JSON.stringify({ type: 'user', sessionId: session, timestamp: at, message: { content: [{ type: 'tool_result', tool_use_id: id }] } });

function setup() {
  const state = tempDir();
  const root = join(tempDir(), 'projects', 'p');
  mkdirSync(root, { recursive: true });
  const learning = new SearchLearning({ now: () => Date.parse('2026-11-30T12:00:00Z'), enabled: () => true });
  const open = () => {
    const usage = new UsageStore(state, silentLogger);
    usage.onTranscriptLine = transcriptLearner(learning, () => 'mws');
    return usage;
  };
  return { state, root, learning, open, sources: [{ root, agent: 'claude' }] };
}

describe('search → call pairs from the usage cycle', () => {
  it('learns the query for the tool called after it, once, however often the lines are read', async () => {
    const { state, root, learning, open, sources } = setup();
    writeFileSync(
      join(root, 's1.jsonl'),
      [
        use('s1', '2026-11-30T10:00:00Z', 'u1', 'search_tools', { query: 'is this domain official' }),
        result('s1', '2026-11-30T10:00:01Z', 'u1'),
        use('s1', '2026-11-30T10:00:05Z', 'u2', 'call_tool', { name: 'browser_navigate', arguments: {} }),
        result('s1', '2026-11-30T10:00:06Z', 'u2'),
        JSON.stringify({ type: 'user', sessionId: 's1', timestamp: '2026-11-30T10:00:07Z', message: { content: 'thanks' } }),
      ].join('\n') + '\n',
    );
    const usage = open();
    await usage.load();
    await usage.ingestTranscripts(sources, 'mws');
    expect(learning.counts()).toEqual({ claude: 1 });
    expect(learning.wordsFor('browser_navigate', 'claude').map((w) => w.word)).toEqual(expect.arrayContaining(['domain', 'official']));
    // A second read finds nothing new (the cursor moved).
    await usage.ingestTranscripts(sources, 'mws');
    expect(learning.counts()).toEqual({ claude: 1 });
    // A damaged usage.json starts its cursors over: the same lines are read again, nothing is learned twice.
    await usage.save();
    rmSync(join(state, USAGE_FILE));
    const again = open();
    await again.load();
    await again.ingestTranscripts(sources, 'mws');
    expect(learning.counts()).toEqual({ claude: 1 });
    // A later search in the file is learned when the next cycle reads it.
    appendFileSync(
      join(root, 's1.jsonl'),
      use('s1', '2026-11-30T10:05:00Z', 'u3', 'search_tools', { query: 'who owns this website' }) +
        '\n' +
        use('s1', '2026-11-30T10:05:02Z', 'u4', 'whois_lookup', {}) +
        '\n',
    );
    await again.ingestTranscripts(sources, 'mws');
    expect(learning.counts()).toEqual({ claude: 2 });
    expect(learning.wordsFor('whois_lookup', 'claude').map((w) => w.word)).toContain('website');
  });

  it('ignores other servers, calls long after a search, and nothing when learning is off', async () => {
    const { root, open, sources } = setup();
    let on = true;
    const learning = new SearchLearning({ now: () => 0, enabled: () => on });
    writeFileSync(
      join(root, 's2.jsonl'),
      [
        use('s2', '2026-11-30T10:00:00Z', 'a', 'search_tools', { query: 'send the invoice' }),
        JSON.stringify({
          sessionId: 's2',
          timestamp: '2026-11-30T10:00:02Z',
          message: { content: [{ type: 'tool_use', id: 'b', name: 'mcp__other__send', input: {} }] },
        }),
        use('s2', '2026-11-30T11:00:00Z', 'c', 'mail_send_message', {}),
      ].join('\n') + '\n',
    );
    const usage = open();
    usage.onTranscriptLine = transcriptLearner(learning, () => 'mws');
    await usage.ingestTranscripts(sources, 'mws');
    expect(learning.counts()).toEqual({});
    on = false;
    appendFileSync(
      join(root, 's2.jsonl'),
      use('s2', '2026-11-30T12:00:00Z', 'd', 'search_tools', { query: 'send the invoice' }) +
        '\n' +
        use('s2', '2026-11-30T12:00:01Z', 'e', 'mail_send_message', {}) +
        '\n',
    );
    await usage.ingestTranscripts(sources, 'mws');
    expect(learning.counts()).toEqual({});
  });

  it('does not learn a second time a search→call the proxy saw live, and learns the resolved name of a short one', async () => {
    const { root, learning, sources } = setup();
    // The proxy saw this search and call live (its clock a second off the transcript's).
    learning.train('claude', [{ query: 'send the invoice', tool: 'demo__mail_send_message', ts: Date.parse('2026-11-30T10:00:06Z') }]);
    writeFileSync(
      join(root, 's3.jsonl'),
      [
        use('s3', '2026-11-30T10:00:00Z', 'a', 'search_tools', { query: 'send the invoice' }),
        use('s3', '2026-11-30T10:00:05Z', 'b', 'call_tool', { name: 'mail_send_message', arguments: {} }),
      ].join('\n') + '\n',
    );
    const usage = new UsageStore(tempDir(), silentLogger);
    usage.onTranscriptLine = transcriptLearner(
      learning,
      () => 'mws',
      (name) => (name === 'mail_send_message' ? 'demo__mail_send_message' : name),
    );
    await usage.ingestTranscripts(sources, 'mws');
    expect(learning.counts()).toEqual({ claude: 1 });
    expect(learning.wordsFor('mail_send_message', 'claude')).toEqual([]);
  });
});

// The search's reply as Claude Code records it: a tool_result in the next user message, the reply's JSON as text.
const reply = (session: string, at: string, id: string, body: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: 'user',
    sessionId: session,
    timestamp: at,
    message: { content: [{ type: 'tool_result', tool_use_id: id, content: [{ type: 'text', text: JSON.stringify(body) }], ...extra }] },
  });
const hits = (...names: string[]) => ({
  query: 'q',
  results: names.map((name) => ({ name, promoted: false, readOnlyHint: true, destructiveHint: false })),
});
const SHORT = (name: string) => (name.startsWith('demo__') ? name : `demo__${name}`);

describe('ignored first hits from transcripts', () => {
  function negSetup() {
    let now = Date.parse('2026-11-30T10:00:10Z');
    const state = tempDir();
    const root = join(tempDir(), 'projects', 'p');
    mkdirSync(root, { recursive: true });
    const learning = new SearchLearning({ stateDir: state, now: () => now, enabled: () => true });
    const open = () => {
      const usage = new UsageStore(tempDir(), silentLogger);
      usage.onTranscriptLine = transcriptLearner(learning, () => 'mws', SHORT);
      return usage;
    };
    const pairs = async () => {
      await learning.flush();
      return (
        (
          JSON.parse(readFileSync(join(state, 'learned.json'), 'utf8')) as {
            agents: Record<string, Array<{ q: string; t: string; neg?: boolean }>>;
          }
        ).agents.claude ?? []
      );
    };
    return { learning, root, open, pairs, sources: [{ root, agent: 'claude' }], setNow: (ms: number) => (now = ms) };
  }

  it('counts the first hit shown against the query when the first call goes to another tool, once however often read', async () => {
    const { learning, root, open, pairs, sources } = negSetup();
    // Earlier evidence that "monitor" meant mail_send_message: the ignored hit must weigh it down.
    learning.train('claude', [{ query: 'monitor the inbox', tool: 'demo__mail_send_message', ts: Date.parse('2026-11-29T10:00:00Z') }]);
    const before = learning.wordsFor('demo__mail_send_message', 'claude').find((w) => w.word === 'monitor')!.weight;
    writeFileSync(
      join(root, 'n1.jsonl'),
      [
        use('n1', '2026-11-30T10:00:00Z', 's1', 'search_tools', { query: 'buy a monitor' }),
        reply('n1', '2026-11-30T10:00:01Z', 's1', hits('demo__mail_send_message', 'demo__browser_get_page_text')),
        use('n1', '2026-11-30T10:00:05Z', 'c1', 'call_tool', { name: 'browser_get_page_text', arguments: {} }),
        result('n1', '2026-11-30T10:00:06Z', 'c1'),
        // A second call after the same search is not "the first": no second negative.
        use('n1', '2026-11-30T10:00:09Z', 'c2', 'call_tool', { name: 'calendar_list_events', arguments: {} }),
      ].join('\n') + '\n',
    );
    await open().ingestTranscripts(sources, 'mws');
    expect((await pairs()).filter((p) => p.q === 'buy a monitor')).toEqual([
      expect.objectContaining({ t: 'demo__browser_get_page_text' }),
      expect.objectContaining({ t: 'demo__mail_send_message', neg: true }),
      expect.objectContaining({ t: 'demo__calendar_list_events' }),
    ]);
    expect(learning.wordsFor('demo__mail_send_message', 'claude').find((w) => w.word === 'monitor')?.weight ?? 0).toBeLessThan(before);
    // Cursors started over (a new usage file): the same lines teach nothing twice, the negative included.
    await open().ingestTranscripts(sources, 'mws');
    expect(learning.counts()).toEqual({ claude: 4 });
  });

  it("adds no negative when the first call is the first hit, the reply failed, or the reply is not this search's", async () => {
    const { learning, root, open, pairs, sources } = negSetup();
    writeFileSync(
      join(root, 'n2.jsonl'),
      [
        // The first hit called (by its short name; the exact reply shape names one tool).
        use('n2', '2026-11-30T10:00:00Z', 'a1', 'search_tools', { query: 'page text' }),
        reply('n2', '2026-11-30T10:00:01Z', 'a1', { tool: { name: 'demo__browser_get_page_text' } }),
        use('n2', '2026-11-30T10:00:02Z', 'a2', 'browser_get_page_text', {}),
        // A failed search: its text is an error, not a list of hits.
        use('n2', '2026-11-30T10:01:00Z', 'b1', 'search_tools', { query: 'send mail' }),
        reply('n2', '2026-11-30T10:01:01Z', 'b1', hits('demo__calendar_list_events'), { is_error: true }),
        use('n2', '2026-11-30T10:01:02Z', 'b2', 'call_tool', { name: 'mail_send_message', arguments: {} }),
        // A reply to some other tool_use does not name this search's first hit.
        use('n2', '2026-11-30T10:02:00Z', 'c1', 'search_tools', { query: 'list events' }),
        reply('n2', '2026-11-30T10:02:01Z', 'zz', hits('demo__mail_send_message')),
        use('n2', '2026-11-30T10:02:02Z', 'c2', 'call_tool', { name: 'calendar_list_events', arguments: {} }),
      ].join('\n') + '\n',
    );
    await open().ingestTranscripts(sources, 'mws');
    expect(learning.counts()).toEqual({ claude: 3 });
    expect((await pairs()).some((p) => p.neg)).toBe(false);
  });

  it('does not count a negative twice that the proxy saw live, and reads a reply given as plain text', async () => {
    const { learning, root, open, sources, setNow } = negSetup();
    // Live: the proxy answered the search with mail first, then the agent called the browser tool.
    setNow(Date.parse('2026-11-30T10:00:06Z'));
    learning.searched('claude', 'buy a monitor', ['demo__mail_send_message', 'demo__browser_get_page_text']);
    learning.called('claude', 'demo__browser_get_page_text');
    expect(learning.counts()).toEqual({ claude: 2 });
    writeFileSync(
      join(root, 'n3.jsonl'),
      [
        use('n3', '2026-11-30T10:00:00Z', 's1', 'search_tools', { query: 'buy a monitor' }),
        JSON.stringify({
          type: 'user',
          sessionId: 'n3',
          timestamp: '2026-11-30T10:00:01Z',
          message: { content: [{ type: 'tool_result', tool_use_id: 's1', content: JSON.stringify(hits('demo__mail_send_message')) }] },
        }),
        use('n3', '2026-11-30T10:00:05Z', 'c1', 'call_tool', { name: 'browser_get_page_text', arguments: {} }),
        // A later search in another session of the same agent, seen only in the transcript: learned.
        use('n4', '2026-11-30T10:03:00Z', 't1', 'search_tools', { query: 'who owns this website' }),
        JSON.stringify({
          type: 'user',
          sessionId: 'n4',
          timestamp: '2026-11-30T10:03:01Z',
          message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: JSON.stringify(hits('demo__browser_navigate')) }] },
        }),
        use('n4', '2026-11-30T10:03:05Z', 't2', 'whois_lookup', {}),
      ].join('\n') + '\n',
    );
    await open().ingestTranscripts(sources, 'mws');
    // The live positive and negative stay as they were; the new search brings one positive and one negative.
    expect(learning.counts()).toEqual({ claude: 4 });
  });
});

describe('the first hit of a search_tools reply', () => {
  it('is read from the very text the proxy answers, ranked or exact, and from nothing else', async () => {
    const { Toolbox } = await import('../../../src-main/core/toolbox/toolbox.js');
    const { DEMO_TOOLS } = await import('../../../src-main/core/demo/tools.js');
    const { SearchService } = await import('../../../src-main/core/search/service.js');
    const service = new SearchService(() => new Toolbox(new Map([['demo', [...DEMO_TOOLS]]]), true), {}, 'bm25f');
    for (const query of ['read the text of a page', 'send an email', 'demo__browser_navigate', 'mail']) {
      const answer = service.search(query, 5, () => false);
      expect(answer.names.length, query).toBeGreaterThan(0);
      expect(firstHitOf([{ type: 'text', text: answer.text }]), query).toBe(answer.names[0]);
      expect(firstHitOf(answer.text), query).toBe(answer.names[0]);
    }
    expect(firstHitOf(service.search('zzqx vvq', 5, () => false).text)).toBeUndefined();
    expect(firstHitOf('{"results": [{"name": 3}]}')).toBeUndefined();
    expect(firstHitOf('not json')).toBeUndefined();
    expect(firstHitOf([{ type: 'image', data: '' }])).toBeUndefined();
  });
});

describe('the transcript reader lets go of searches past the learning window', () => {
  it('stops awaiting a reply that never came once the window has passed, and learns nothing from it', async () => {
    const { TranscriptPairReader } = await import('../../../src-main/core/search/transcriptPairs.js');
    const r = new TranscriptPairReader('mws');
    r.read(use('s1', '2026-11-30T10:00:00Z', 'x1', 'search_tools', { query: 'send mail' }));
    expect(r.awaitsReply).toBe(true);
    // A line of another session 11 minutes later: that search can teach nothing any more.
    expect(r.read(use('s2', '2026-11-30T10:11:00Z', 'y1', 'mail_send_message', {}))).toEqual([]);
    expect(r.awaitsReply).toBe(false);
    expect(r.read(use('s1', '2026-11-30T10:11:01Z', 'x2', 'mail_send_message', {}))).toEqual([]);
  });
});
