// A calls.jsonl backlog as the proxy writes it: `lines` calls over 100 agents and 5,000 tools, one a
// failure in 50, sessions of 200 calls, starting at `start` (ms), 50 ms apart.
import { appendFileSync, writeFileSync } from 'node:fs';

export function writeCallBacklog(path: string, lines: number, start: number): void {
  writeFileSync(path, '');
  const chunk: string[] = [];
  for (let i = 0; i < lines; i++) {
    chunk.push(
      JSON.stringify({
        ts: new Date(start + i * 50).toISOString(),
        agent: `a${i % 100}`,
        tool: `t${i % 5000}`,
        via: 'direct',
        ok: i % 50 !== 0,
        ms: 1,
        client: 'c',
        session: `s${Math.floor(i / 200)}`,
      }),
    );
    if (chunk.length === 50_000) appendFileSync(path, chunk.splice(0).join('\n') + '\n');
  }
  if (chunk.length) appendFileSync(path, chunk.join('\n') + '\n');
}
