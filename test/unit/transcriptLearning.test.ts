// Learning from Claude Code transcripts: the usage cycle's transcript read also yields search→call
// pairs, bounded, and reading the same lines again (cursors started over) learns nothing twice.
import { describe, expect, it } from 'vitest';
import { mkdirSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageStore, USAGE_FILE } from '../../src-main/core/usage/usageStore.js';
import { SearchLearning } from '../../src-main/core/search/learning.js';
import { transcriptLearner } from '../../src-main/core/search/transcriptPairs.js';
import { silentLogger } from '../../src-main/core/log.js';
import { tempDir } from '../helpers/app.js';

const use = (session: string, at: string, id: string, name: string, input: Record<string, unknown>) =>
  JSON.stringify({ type: 'assistant', sessionId: session, timestamp: at, message: { content: [{ type: 'tool_use', id, name: `mcp__mws__${name}`, input }] } });
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
    appendFileSync(join(root, 's1.jsonl'), use('s1', '2026-11-30T10:05:00Z', 'u3', 'search_tools', { query: 'who owns this website' }) + '\n' + use('s1', '2026-11-30T10:05:02Z', 'u4', 'whois_lookup', {}) + '\n');
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
        JSON.stringify({ sessionId: 's2', timestamp: '2026-11-30T10:00:02Z', message: { content: [{ type: 'tool_use', id: 'b', name: 'mcp__other__send', input: {} }] } }),
        use('s2', '2026-11-30T11:00:00Z', 'c', 'mail_send_message', {}),
      ].join('\n') + '\n',
    );
    const usage = open();
    usage.onTranscriptLine = transcriptLearner(learning, () => 'mws');
    await usage.ingestTranscripts(sources, 'mws');
    expect(learning.counts()).toEqual({});
    on = false;
    appendFileSync(join(root, 's2.jsonl'), use('s2', '2026-11-30T12:00:00Z', 'd', 'search_tools', { query: 'send the invoice' }) + '\n' + use('s2', '2026-11-30T12:00:01Z', 'e', 'mail_send_message', {}) + '\n');
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
    usage.onTranscriptLine = transcriptLearner(learning, () => 'mws', (name) => (name === 'mail_send_message' ? 'demo__mail_send_message' : name));
    await usage.ingestTranscripts(sources, 'mws');
    expect(learning.counts()).toEqual({ claude: 1 });
    expect(learning.wordsFor('mail_send_message', 'claude')).toEqual([]);
  });
});

