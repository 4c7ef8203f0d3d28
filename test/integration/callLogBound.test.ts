// The call log has a hard ceiling on disk against a real `mws serve`: a local client with no credential
// sends a 1 MB clientInfo.name (and a tool name and arguments as large as the MCP paths take) on every
// call; with activity.maxFileMB 1, calls.jsonl stays within 1 MiB and it and calls.1.jsonl within 2 MiB.
// A deleted calls.jsonl is made again by the next record.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawnMws, waitForOutput, type Running } from '../helpers/processes.js';
import { tempDir } from '../helpers/app.js';
import { until } from '../helpers/wait.js';

const MIB = 1024 * 1024;
let stateDir: string;
let serve: Running;
let url: string;
const clients: Client[] = [];

const sizeOf = (file: string) => (existsSync(join(stateDir, file)) ? statSync(join(stateDir, file)).size : 0);

async function connect(name: string, mode: 'auto' | 'legacy'): Promise<Client> {
  const c = new Client({ name, version: 'v'.repeat(100_000) }, { versionNegotiation: { mode } } as never);
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(c);
  return c;
}

beforeAll(async () => {
  const dir = tempDir('mws-calllog-');
  stateDir = join(dir, 'state');
  const cfg = join(dir, 'config.json');
  writeFileSync(
    cfg,
    JSON.stringify({
      upstream: { builtin: 'demo' },
      stateDir,
      listen: { port: 0 },
      activity: { maxFileMB: 1, recordArguments: true },
    }),
  );
  serve = spawnMws(['serve', '--config', cfg]);
  url = (await waitForOutput(serve, /listening on (http:\/\/\S+\/mcp)/, 'mws serve'))[1]!;
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await serve?.kill();
});

describe('the call log on disk', () => {
  it('stays within maxFileMB (calls.jsonl) and twice it (with calls.1.jsonl) under 1 MB client names', async () => {
    const huge = 'n'.repeat(MIB);
    for (const mode of ['auto', 'legacy'] as const) {
      const c = await connect(huge, mode);
      for (let batch = 0; batch < 10; batch++) {
        await Promise.all(
          Array.from({ length: 24 }, (_, i) =>
            c.callTool({
              name: 'call_tool',
              arguments: { name: 'mail_get_message', arguments: { messageId: `m${i}`.repeat(100_000) } },
            }),
          ),
        );
        expect(sizeOf('calls.jsonl'), `calls.jsonl after ${mode} batch ${batch}`).toBeLessThanOrEqual(MIB);
        expect(sizeOf('calls.jsonl') + sizeOf('calls.1.jsonl'), `the log after ${mode} batch ${batch}`).toBeLessThanOrEqual(2 * MIB);
      }
      // An unknown tool's name comes from the client too.
      await c.callTool({ name: 'x'.repeat(500_000), arguments: {} }).catch(() => undefined);
    }
    expect(sizeOf('calls.jsonl') + sizeOf('calls.1.jsonl')).toBeLessThanOrEqual(2 * MIB);
    expect(sizeOf('calls.1.jsonl'), 'the flood filled calls.jsonl at least once').toBeGreaterThan(0);
    // Every line is a whole record whose client-controlled texts were cut, not dropped.
    const lines = readFileSync(join(stateDir, 'calls.jsonl'), 'utf8').trim().split('\n');
    const last = JSON.parse(lines.at(-1)!) as { client: string; tool: string };
    expect(last.client.length).toBeGreaterThan(0);
    expect(last.client.length).toBeLessThanOrEqual(200);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40 * 1024);
  }, 120_000);

  it('makes calls.jsonl again after it was deleted', async () => {
    const c = await connect('after-delete', 'auto');
    await c.callTool({ name: 'call_tool', arguments: { name: 'mail_get_message', arguments: { messageId: 'm0' } } });
    rmSync(join(stateDir, 'calls.jsonl'), { force: true });
    // The path is looked at again at most every 100 ms (store/jsonl.ts): calls made within that go to
    // the deleted file. A record is written before its answer goes out, so once a call's answer is
    // back after the next look, its record is there.
    await until(
      async () => {
        await c.callTool({ name: 'call_tool', arguments: { name: 'mail_get_message', arguments: { messageId: 'm1' } } });
        return existsSync(join(stateDir, 'calls.jsonl')) || undefined;
      },
      'calls.jsonl made again by a call after the deletion',
      20_000,
    );
    expect(readFileSync(join(stateDir, 'calls.jsonl'), 'utf8')).toContain('"client":"after-delete"');
  }, 60_000);
});
