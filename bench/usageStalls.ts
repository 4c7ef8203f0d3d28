// Where one usage cycle over a calls.jsonl backlog holds the event loop: every stall over 15 ms with
// the garbage collections that overlap it (bench/scale gives the headline figure; this explains it).
//   node --import tsx bench/usageStalls.ts [LINES]
import { join } from 'node:path';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { setsHarness } from '../test/helpers/sets.js';
import { writeCallBacklog } from './callBacklog.js';
import { stallWatch } from './schedstat.js';

const lines = Number(process.argv[2] ?? 1_000_000);
const h = await setsHarness();
const path = join(h.stateDir, 'calls.jsonl');
const t = h.clock.now() - 86_400_000;
writeCallBacklog(path, lines, t);
const kinds: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incr',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak',
};
const gcs: Array<{ start: number; dur: number; kind: string }> = [];
const obs = new PerformanceObserver((l) => {
  for (const e of l.getEntries())
    gcs.push({ start: e.startTime, dur: e.duration, kind: kinds[(e as unknown as { detail: { kind: number } }).detail.kind] ?? '?' });
});
obs.observe({ entryTypes: ['gc'] });
// Phases: each UsageStore step's span, to tell which one a stall falls in.
const phases: Array<{ name: string; start: number; end: number }> = [];
for (const name of ['ingestCallLog', 'ingestTranscripts', 'save', 'prune'] as const) {
  const u = h.usage as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  const orig = u[name]!.bind(h.usage);
  u[name] = async (...a: unknown[]) => {
    const p = { name, start: performance.now(), end: 0 };
    phases.push(p);
    try {
      return await orig(...a);
    } finally {
      p.end = performance.now();
    }
  };
}
const t0 = performance.now();
const watch = stallWatch();
await h.sets.cycle(h.clock.now());
const w = watch.stop();
const stalls = w.gaps
  .filter((g) => g.wall > 15 || g.cpu > 10 || g.wall - g.wait > 12)
  .map((g) => ({ at: g.at, len: g.wall, cpu: g.cpu, wait: g.wait }));
await new Promise((r) => setTimeout(r, 50));
obs.disconnect();
const total = performance.now() - t0;
let gcInStalls = 0;
for (const s of stalls) {
  const over = gcs.filter((g) => g.start < s.at + s.len && g.start + g.dur > s.at);
  const gcMs = over.reduce((a, g) => a + g.dur, 0);
  gcInStalls += gcMs;
  if (s.len < 30 && s.cpu < 10 && s.len - s.wait <= 12) continue;
  const in_ =
    phases
      .filter((p) => p.start < s.at + s.len && p.end > s.at)
      .map((p) => p.name)
      .join('+') || 'between phases';
  console.log(
    `stall at ${Math.round(s.at - t0)} ms: ${Math.round(s.len)} ms (on-CPU ${Math.round(s.cpu)}, waiting for a core ${Math.round(s.wait)}); in ${in_}; GC ${over.map((g) => `${g.kind} ${Math.round(g.dur)}`).join(', ') || 'none'}`,
  );
}
for (const p of phases) console.log(`${p.name}: ${Math.round(p.start - t0)}–${Math.round(p.end - t0)} ms`);
const byKind: Record<string, { n: number; ms: number; max: number }> = {};
for (const g of gcs) {
  const k = (byKind[g.kind] ??= { n: 0, ms: 0, max: 0 });
  k.n++;
  k.ms += g.dur;
  k.max = Math.max(k.max, g.dur);
}
console.log(
  `${lines} lines: ${Math.round(total)} ms; ${stalls.length} stalls > 15 ms, longest ${Math.round(w.wall)} ms (p99 ${Math.round(w.wallP99)}), longest on-CPU ${Math.round(w.cpu)} ms (p99 ${Math.round(w.cpuP99)}), longest less waiting for a core ${Math.round(w.own)} ms (p99 ${Math.round(w.ownP99)}); GC within stalls ${Math.round(gcInStalls)} ms; GC by kind ${JSON.stringify(byKind, (_k, v) => (typeof v === 'number' ? Math.round(v) : v))}; heap ${Math.round(process.memoryUsage().heapUsed / 1e6)} MB`,
);
await h.close();
