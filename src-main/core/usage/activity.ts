// The activity log as the window and `mws activity` show it: the latest calls from calls.jsonl (and the
// file it rotated to), newest first, read from the end so a long log costs a few blocks, not the file.
// Rotation keeps the log bounded on disk (callLog.ts): past `activity.maxFileMB` calls.jsonl becomes
// calls.1.jsonl (replacing the one before), and the usage reader finishes the rotated file before the new one.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { CALL_LOG_FILE, CALL_LOG_ROTATED_FILE } from './callLog.js';
import type { ActivityEntry } from './activityTypes.js';

export type { ActivityEntry } from './activityTypes.js';

export { CALL_LOG_ROTATED_FILE };
/** The most calls one read answers. */
export const ACTIVITY_MAX_LIMIT = 1000;
const BLOCK_BYTES = 64 * 1024;

/** The latest calls, newest first, of one agent or all. */
export function recentCalls(stateDir: string, o: { agent?: string; limit?: number } = {}): ActivityEntry[] {
  const limit = Math.max(1, Math.min(o.limit ?? 100, ACTIVITY_MAX_LIMIT));
  const out: ActivityEntry[] = [];
  for (const file of [CALL_LOG_FILE, CALL_LOG_ROTATED_FILE]) {
    for (const line of linesFromEnd(join(stateDir, file))) {
      const e = entryOf(line);
      if (!e || (o.agent && e.agent !== o.agent)) continue;
      out.push(e);
      if (out.length >= limit) return out;
    }
  }
  return out;
}

function entryOf(line: string): ActivityEntry | undefined {
  let r: Record<string, unknown>;
  try {
    r = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (r.event !== undefined || typeof r.tool !== 'string' || typeof r.ts !== 'string') return undefined;
  return {
    ts: r.ts,
    agent: typeof r.agent === 'string' ? r.agent : 'default',
    tool: r.tool,
    upstream: typeof r.upstream === 'string' ? r.upstream : null,
    via: typeof r.via === 'string' ? r.via : 'direct',
    ok: r.ok === true,
    ms: typeof r.ms === 'number' ? r.ms : 0,
    client: typeof r.client === 'string' ? r.client : 'unknown',
    ...(r.refused === true ? { refused: true } : {}),
    ...(typeof r.reason === 'string' ? { reason: r.reason } : {}),
    ...(r.arguments !== undefined ? { arguments: r.arguments } : {}),
    ...(typeof r.result === 'string' ? { result: r.result } : {}),
  };
}

/** A file's lines from its last to its first, read a block at a time from the end. */
function* linesFromEnd(path: string): Generator<string> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return;
  }
  try {
    let end = fstatSync(fd).size;
    let carry = Buffer.alloc(0);
    const block = Buffer.alloc(BLOCK_BYTES);
    while (end > 0) {
      const start = Math.max(0, end - BLOCK_BYTES);
      const n = readSync(fd, block, 0, end - start, start);
      let buf = Buffer.concat([block.subarray(0, n), carry]);
      end = start;
      // Whole lines only: what precedes the first newline waits for the next block (unless at the start).
      const cut = end > 0 ? buf.indexOf(0x0a) : -1;
      if (end > 0 && cut < 0) {
        carry = buf;
        continue;
      }
      carry = cut >= 0 ? buf.subarray(0, cut) : Buffer.alloc(0);
      buf = cut >= 0 ? buf.subarray(cut + 1) : buf;
      const lines = buf.toString('utf8').split('\n');
      for (let i = lines.length - 1; i >= 0; i--) if (lines[i]!.trim()) yield lines[i]!;
    }
    if (carry.length && carry.toString('utf8').trim()) yield carry.toString('utf8');
  } finally {
    closeSync(fd);
  }
}
