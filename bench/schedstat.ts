// The main thread's own time on a core and time waiting for one (Linux /proc schedstat, ns), so an
// event-loop stall can be split into work this process did and time a busy machine kept it off a core.
import { readFileSync } from 'node:fs';

const PATH = `/proc/self/task/${process.pid}/schedstat`;

/** [on-CPU ms, runqueue-wait ms] of the main thread since it started; undefined off Linux. */
export function mainThreadTimes(): [number, number] | undefined {
  try {
    const [run, wait] = readFileSync(PATH, 'utf8').split(' ').map(Number);
    return [run! / 1e6, wait! / 1e6];
  } catch {
    return undefined;
  }
}

/**
 * Watches the event loop every 2 ms: the longest gap between two ticks (wall); the longest a gap held
 * the main thread on a core (its own work: parsing, GC on the main thread; the kernel accounts it per
 * scheduler tick, so one gap's figure is only good to a tick, 4 ms here); and the longest gap less the
 * time the thread sat runnable waiting for a core (exact at each switch; still counts the main thread
 * sleeping on GC helper threads), with the p99 of each.
 */
export function stallWatch(): {
  stop: () => {
    wall: number;
    cpu: number;
    own: number;
    wallP99: number;
    cpuP99: number;
    ownP99: number;
    gaps: Array<{ at: number; wall: number; cpu: number; wait: number }>;
  };
} {
  const gaps: Array<{ at: number; wall: number; cpu: number; wait: number }> = [];
  let last = performance.now();
  let lastT = mainThreadTimes() ?? [0, 0];
  const tick = setInterval(() => {
    const now = performance.now();
    const t = mainThreadTimes() ?? [0, 0];
    gaps.push({ at: last, wall: now - last, cpu: t[0] - lastT[0], wait: t[1] - lastT[1] });
    last = now;
    lastT = t;
  }, 2);
  return {
    stop: () => {
      clearInterval(tick);
      const p99 = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length * 0.99)] ?? 0;
      return {
        wall: Math.max(0, ...gaps.map((g) => g.wall)),
        cpu: Math.max(0, ...gaps.map((g) => g.cpu)),
        wallP99: p99(gaps.map((g) => g.wall)),
        cpuP99: p99(gaps.map((g) => g.cpu)),
        own: Math.max(0, ...gaps.map((g) => g.wall - g.wait)),
        ownP99: p99(gaps.map((g) => g.wall - g.wait)),
        gaps,
      };
    },
  };
}
