// Claude Code transcripts: `<root>/**/*.jsonl`, one JSON event a line. A tool call is a `tool_use`
// block in an assistant message, its outcome a `tool_result` block (with `is_error`) in a later user
// message. Calls to this proxy are named `mcp__<serverName>__<tool>`; `call_tool` counts for its target.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

export type TranscriptCall = { id: string; tool: string; ts: number; session: string };
export type TranscriptResult = { id: string; ok: boolean };

type Block = { type?: string; id?: string; name?: string; input?: { name?: unknown }; tool_use_id?: string; is_error?: boolean };
type Event = { type?: string; sessionId?: string; timestamp?: string; message?: { content?: unknown } };

export function parseTranscriptLine(line: string, serverName: string): { calls: TranscriptCall[]; results: TranscriptResult[] } {
  const calls: TranscriptCall[] = [];
  const results: TranscriptResult[] = [];
  let ev: Event;
  try {
    ev = JSON.parse(line) as Event;
  } catch {
    return { calls, results };
  }
  const content = Array.isArray(ev.message?.content) ? (ev.message!.content as Block[]) : [];
  const prefix = `mcp__${serverName}__`;
  const ts = ev.timestamp ? Date.parse(ev.timestamp) : NaN;
  for (const b of content) {
    if (b?.type === 'tool_use' && typeof b.id === 'string' && typeof b.name === 'string' && b.name.startsWith(prefix)) {
      let tool = b.name.slice(prefix.length);
      if (tool === 'call_tool' && typeof b.input?.name === 'string') tool = b.input.name;
      if (['search_tools', 'call_tool', 'promote', 'demote'].includes(tool) || Number.isNaN(ts)) continue;
      calls.push({ id: b.id, tool, ts, session: ev.sessionId ?? 'unknown' });
    } else if (b?.type === 'tool_result' && typeof b.tool_use_id === 'string') {
      results.push({ id: b.tool_use_id, ok: b.is_error !== true });
    }
  }
  return { calls, results };
}

/** Every `.jsonl` file below `root`, however deep. */
export async function transcriptFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, depth: number) => {
    if (depth > 8) return;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory()) await walk(p, depth + 1);
      else if (e.isFile() && e.name.endsWith('.jsonl')) out.push(p);
    }
  };
  await walk(root, 0);
  return out.sort();
}
