// The stdio transport's size limit: an oversize answer becomes an error for its request only.
import { describe, expect, it, vi } from 'vitest';
import { withDeadline } from '../../helpers/wait.js';
import { StdioUpstreamTransport, findResponseId, firstBytes, joinText, lastBytes } from '../../../src-main/core/upstream/stdioTransport.js';

describe('findResponseId', () => {
  it('reads the top-level id at the end or the start of a response, else the only open request', () => {
    expect(findResponseId('{"result":{"content":[{"text":"xx', 'xx"}]},"jsonrpc":"2.0","id":7}', new Set([7, 8]))).toBe(7);
    expect(findResponseId('{"jsonrpc":"2.0","id":"a-1","result":{"content":"xx', 'xx"}}', new Set(['a-1', 2]))).toBe('a-1');
    expect(findResponseId('{"result":{"id":3,"x":"', 'garbage', new Set([9]))).toBe(9);
    expect(findResponseId('{"result":{"id":3,"x":"', 'garbage', new Set([9, 10]))).toBeUndefined();
    expect(findResponseId('{"method":"notifications/message","params":{"data":"', '"}}', new Set([1]))).toBeUndefined();
    // The same with "jsonrpc" first, or a request of the upstream's own whose id is one of ours: not an answer.
    expect(findResponseId('{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"', '"}}', new Set([1]))).toBeUndefined();
    expect(
      findResponseId('{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"x":"', '"}}', new Set([1])),
    ).toBeUndefined();
  });
});

/** A transport to a node child running `script`. */
function childTransport(script: string, maxMessageBytes: number): StdioUpstreamTransport {
  return new StdioUpstreamTransport({ command: process.execPath, args: ['-e', script], env: {}, cwd: undefined, maxMessageBytes });
}

/** Blocks Buffer.concat made larger than a pipe's piece: a whole message joined (pagedBytes.ts). */
const joinedWhole = (concat: { mock: { results: Array<{ value: unknown }> } }) =>
  concat.mock.results.filter((r) => (r.value as Buffer).length > 64 * 1024);

describe('StdioUpstreamTransport', () => {
  it('answers an oversize response with a sentence and keeps reading the next messages', async () => {
    // A child that answers request 1 with 3 MB (in many chunks, no newline until the end), then a small message.
    const script = `
      process.stdin.once('data', () => {
        const big = 'x'.repeat(64 * 1024);
        process.stdout.write('{"result":{"content":[{"type":"text","text":"');
        for (let i = 0; i < 48; i++) process.stdout.write(big);
        process.stdout.write('"}]},"jsonrpc":"2.0","id":1}\\n');
        process.stdout.write('{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"still here"}}\\n');
      });
      setTimeout(() => {}, 10000);`;
    const t = childTransport(script, 1024 * 1024);
    const concat = vi.spyOn(Buffer, 'concat');
    const got: unknown[] = [];
    const two = new Promise<void>((resolve) => {
      t.onmessage = (m) => {
        got.push(m);
        if (got.length === 2) resolve();
      };
    });
    try {
      await t.start();
      await t.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'big' } });
      await two;
      expect(joinedWhole(concat)).toEqual([]);
    } finally {
      concat.mockRestore();
      await t.close();
    }
    expect(got[0]).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32001, message: expect.stringMatching(/larger than the 1 MB limit.*maxResultBytes/) },
    });
    expect(got[1]).toMatchObject({ method: 'notifications/message', params: { data: 'still here' } });
  }, 30_000);
});

describe('a request given up on', () => {
  it('no longer counts as open: an oversize answer without a readable id goes to the one request still open', async () => {
    // The child waits for three lines (a request, its cancellation, a second request), then answers 3 MB with no id in reach.
    const script = `
      let lines = 0;
      process.stdin.on('data', (d) => {
        lines += String(d).split('\\n').filter(Boolean).length;
        if (lines < 3) return;
        process.stdout.write('{"result":{"content":"' + 'x'.repeat(3 * 1024 * 1024) + '"}}\\n');
      });
      setTimeout(() => {}, 10000);`;
    const t = childTransport(script, 1024 * 1024);
    const got: unknown[] = [];
    const errors: Error[] = [];
    const settled = new Promise<void>((resolve) => {
      t.onmessage = (m) => (got.push(m), resolve());
      t.onerror = (e) => (errors.push(e), resolve());
    });
    try {
      await t.start();
      await t.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow' } });
      await t.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'timed out' } });
      await t.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'big' } });
      await withDeadline(settled, 'the oversize answer to be read');
    } finally {
      await t.close();
    }
    expect(errors).toEqual([]);
    expect(got).toEqual([{ jsonrpc: '2.0', id: 2, error: { code: -32001, message: expect.stringMatching(/larger than/) } }]);
  }, 30_000);
});

describe('joinText', () => {
  it('decodes a line of many pieces as one Buffer.concat would, characters split between pieces included', () => {
    const line = Buffer.from('{"text":"' + 'aé☕😀'.repeat(50_000) + '"}', 'utf8');
    const pieces: Buffer[] = [];
    for (let at = 0; at < line.length; at += 65_535) pieces.push(line.subarray(at, at + 65_535));
    expect(joinText(pieces)).toBe(line.toString('utf8'));
    // A broken sequence reads as the replacement character, as toString gives it.
    const broken = [Buffer.from([0x61, 0xe2, 0x98]), Buffer.from([0x62])];
    expect(joinText(broken)).toBe(Buffer.concat(broken).toString('utf8'));
  });
});

describe('a large answer from a stdio upstream', () => {
  it("is decoded piece by piece, never joined as one block of bytes (which would raise the C allocator's threshold)", async () => {
    // 2 MB of text with characters past ASCII, in the 64 KB pieces a pipe gives.
    const script = `
      process.stdin.once('data', () => {
        const text = 'aé☕'.repeat(300000);
        process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text } }) + '\\n');
      });
      setTimeout(() => {}, 10000);`;
    const t = childTransport(script, 8 * 1024 * 1024);
    const concat = vi.spyOn(Buffer, 'concat');
    try {
      const got = new Promise<unknown>((resolve) => (t.onmessage = resolve));
      await t.start();
      await t.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      const message = (await got) as { result: { text: string } };
      expect(message.result.text).toBe('aé☕'.repeat(300000));
      expect(joinedWhole(concat)).toEqual([]);
    } finally {
      concat.mockRestore();
      await t.close();
    }
  }, 30_000);
});

describe('the ends of an oversize message', () => {
  it('are copied from its pieces as the joined bytes would give them', () => {
    const pieces = [Buffer.from('abc'), Buffer.alloc(0), Buffer.from('defgh'), Buffer.from('ij')];
    const joined = Buffer.concat(pieces);
    for (const n of [0, 1, 3, 4, 9, 10, 50]) {
      expect(firstBytes(pieces, n).toString()).toBe(joined.subarray(0, n).toString());
      expect(lastBytes(pieces, n).toString()).toBe(joined.subarray(Math.max(0, joined.length - n)).toString());
    }
  });
});
