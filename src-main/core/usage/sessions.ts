// What usage promotion counts as a session, as pure functions: a work session is a run of an agent's
// calls with less than SESSION_GAP_MS between one and the next, whichever client process or MCP session
// made them. Short-lived clients (a CLI run per question, an inspector opened and closed) each open an
// MCP session of their own; counting those let an hour of trying things promote a tool, where a person
// would say they had one session.
import type { SessionUse } from './types.js';

/**
 * Calls of one agent with less than this between them are one work session. Half an hour separates
 * one task from the next for most people (docs/rules/promotion.md).
 */
export const SESSION_GAP_MS = 30 * 60 * 1000;

/** One work session of an agent: its first and last call. An agent's runs are sorted and at least the gap apart. */
export type Run = { first: number; last: number };

/** The index of the last run that starts at or before `ts`, or -1. */
function runBefore(runs: readonly Run[], ts: number): number {
  let lo = 0;
  let hi = runs.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (runs[mid]!.first <= ts) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * Adds a call at `ts` to an agent's runs (in place; calls may come in any order, as two logs are read):
 * it extends the run it is within the gap of, joins two runs it bridges, or starts one. Answers its run.
 */
export function addToRuns(runs: Run[], ts: number): Run {
  const i = runBefore(runs, ts);
  const prev = i >= 0 ? runs[i] : undefined;
  const next = runs[i + 1];
  const joinsPrev = prev !== undefined && ts - prev.last < SESSION_GAP_MS;
  const joinsNext = next !== undefined && next.first - ts < SESSION_GAP_MS;
  if (joinsPrev && joinsNext) {
    prev.last = Math.max(prev.last, next.last);
    runs.splice(i + 1, 1);
    return prev;
  }
  if (joinsPrev) {
    prev.last = Math.max(prev.last, ts);
    return prev;
  }
  if (joinsNext) {
    next.first = ts;
    return next;
  }
  const run = { first: ts, last: ts };
  runs.splice(i + 1, 0, run);
  return run;
}

/** The run that holds `ts`, or undefined. */
function runAt(runs: readonly Run[], ts: number): number | undefined {
  const i = runBefore(runs, ts);
  return i >= 0 && ts <= runs[i]!.last ? i : undefined;
}

/**
 * How many distinct work sessions a tool's use entries fall in. An entry inside one of the agent's runs
 * counts that run once, however many client sessions it came from; a roll-up counts its session count;
 * entries from before runs were kept (no run holds them) are grouped by the same gap among themselves.
 */
export function countWorkSessions(entries: readonly SessionUse[], runs: readonly Run[]): number {
  const seen = new Set<number>();
  let n = 0;
  const loose: SessionUse[] = [];
  for (const u of entries) {
    if (u.sessions !== undefined) {
      n += u.sessions;
      continue;
    }
    const r = runAt(runs, u.last);
    if (r === undefined) loose.push(u);
    else if (!seen.has(r)) {
      seen.add(r);
      n++;
    }
  }
  loose.sort((a, b) => a.first - b.first);
  let end = -Infinity;
  for (const u of loose) {
    if (u.first - end >= SESSION_GAP_MS) n++;
    end = Math.max(end, u.last);
  }
  return n;
}
