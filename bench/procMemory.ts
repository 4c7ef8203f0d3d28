// Resident memory of a process and of the search model's process it started (src-main/core/search/embed/modelProcess.ts),
// read from /proc: the benches give both, so moving the model out of `mws serve` is never counted as a saving.
import { readFileSync } from 'node:fs';

/** VmRSS in MB; 0 once the process is gone. */
export function rss(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/**
 * Proportional set size in MB (/proc/PID/smaps_rollup): pages shared with another process (the node
 * binary's, mapped by mws serve and its model process alike) counted by share, so two processes' PSS
 * add up to what they take together; their RSS would count those pages twice.
 */
export function pss(pid: number): number {
  try {
    return Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** The child running the search model (its command line names onnxruntime-node), if there is one. */
export function modelProcessOf(pid: number): number | undefined {
  return childrenOf(pid).find((c) => commandLine(c).includes('onnxruntime-node'));
}

/** A child whose command line contains `part` (the upstream's script, say). */
export function childRunning(pid: number, part: string): number | undefined {
  return childrenOf(pid).find((c) => commandLine(c).includes(part));
}

/** RSS of the process and of its model process, and the PSS of both together, in MB. */
export function rssWithModel(pid: number): { own: number; model: number; together: number } {
  const m = modelProcessOf(pid);
  return { own: rss(pid), model: m === undefined ? 0 : rss(m), together: pss(pid) + (m === undefined ? 0 : pss(m)) };
}
