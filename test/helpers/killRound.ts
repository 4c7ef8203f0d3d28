// One round of the call-log kill test: a real `mws serve`, clients calling a tool
// in parallel, each call named by its client (the record's `client` field), then kill -9 once
// `calls` answers have come back. Lost: calls answered whose record is not in calls.jsonl.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnMws, waitForOutput } from './processes.js';
import { tempDir } from './app.js';
import { WAIT_MS, withDeadline } from './wait.js';

export type KillRound = { answered: number; recorded: number; lost: number; ms: number };

const ENVELOPE = (client: string) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: client, version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
});

export async function killRound(opts: { calls: number; parallel?: number; deadlineMs?: number }): Promise<KillRound> {
  const dir = tempDir('mws-kill-');
  const stateDir = join(dir, 'state');
  const cfg = join(dir, 'config.json');
  writeFileSync(cfg, JSON.stringify({ upstream: { builtin: 'demo' }, stateDir, listen: { port: 0 } }));
  const serve = spawnMws(['serve', '--config', cfg]);
  const url = (await waitForOutput(serve, /listening on (http:\/\/\S+\/mcp)/, 'mws serve'))[1]!;
  const answered = new Set<string>();
  let next = 0;
  let stop = false;
  const started = performance.now();
  const one = async (): Promise<void> => {
    while (!stop) {
      const client = `k-${next++}`;
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'mail_get_message', arguments: { messageId: client }, _meta: ENVELOPE(client) },
      });
      let ok: boolean;
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/call',
            'mcp-name': 'mail_get_message',
          },
          body,
        });
        const text = await res.text();
        ok = res.status === 200 && text.includes('"result"') && !text.includes('"isError":true');
      } catch {
        return; // the process is gone: this call was never answered
      }
      // An answer that arrives is one the proxy sent, even if it reached us after the kill: it counts.
      if (ok) answered.add(client);
      if (answered.size >= opts.calls && !stop) {
        // At once, in the same turn as the answer that reached the count, as a crash would come:
        // calls still in flight, records of the last answers possibly not written yet.
        stop = true;
        serve.proc.kill('SIGKILL');
      }
    }
  };
  await withDeadline(
    Promise.all(Array.from({ length: opts.parallel ?? 8 }, one)),
    `${opts.calls} answered calls`,
    opts.deadlineMs ?? WAIT_MS * 6,
  );
  await new Promise<void>((r) =>
    serve.proc.exitCode !== null || serve.proc.signalCode !== null ? r() : serve.proc.once('exit', () => r()),
  );
  const ms = performance.now() - started;
  const recorded = new Set<string>();
  for (const line of readFileSync(join(stateDir, 'calls.jsonl'), 'utf8').split('\n')) {
    if (!line) continue;
    try {
      const r = JSON.parse(line) as { client?: string };
      if (r.client) recorded.add(r.client);
    } catch {
      // a torn last line: a call whose record was being written at the kill
    }
  }
  let lost = 0;
  for (const c of answered) if (!recorded.has(c)) lost++;
  return { answered: answered.size, recorded: recorded.size, lost, ms };
}
