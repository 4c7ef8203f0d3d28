// Prometheus metrics (prom-client), one registry per app (tests run several apps in one process):
// calls and searches by agent with call latency, upstreams up or down, working-set sizes, sweep
// demotions by cause, approvals waiting, and the shared database's pool and query time. Served at
// GET /metrics behind the control token; gauges are read from the parts when scraped, never kept.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CallRecord, CallRecorder, SearchRecord } from '../usage/callLog.js';
import type { UpstreamStatus } from '../upstream/types.js';

/** Seconds: from a cached local call (milliseconds) to a slow upstream (a minute and more). */
const CALL_BUCKETS_S = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
/** Seconds: the state port's queries are single rows or small batches. */
const QUERY_BUCKETS_S = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];

/**
 * Node's own metrics (CPU, memory, event-loop lag) belong to the process, not to an app: one registry,
 * made at the first scrape, since its event-loop monitor runs from then on (tests make many apps).
 */
let processMetrics: Registry | undefined;
function processRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics, prefix: 'mws_process_' });
  }
  return processMetrics;
}

export type MetricsParts = {
  upstreams: () => Array<{ vendor: string; status: UpstreamStatus }>;
  setSizes: () => Array<{ agent: string; size: number }>;
  approvalsWaiting: () => number;
  /** The shared database's pool, when there is one. */
  pool?: () => { total: number; idle: number; waiting: number };
};

export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'agent' | 'ok'>;
  private readonly callSeconds: Histogram<'agent'>;
  private readonly demotions: Counter<'cause'>;
  private readonly querySeconds: Histogram<'ok'>;

  /** The parts the gauges read; told once they exist (the recorder wraps the call log before them). */
  private parts: MetricsParts | undefined;

  constructor() {
    const registers = [this.registry];
    const parts = () => this.parts;
    this.requests = new Counter({
      name: 'mws_requests_total',
      help: 'Tool calls (tools/call, direct or through call_tool) and searches (search_tools) by agent and outcome.',
      labelNames: ['method', 'agent', 'ok'],
      registers,
    });
    this.callSeconds = new Histogram({
      name: 'mws_call_duration_seconds',
      help: 'Time from a tool call reaching Working Set to its answer, by agent.',
      labelNames: ['agent'],
      buckets: CALL_BUCKETS_S,
      registers,
    });
    this.demotions = new Counter({
      name: 'mws_sweep_demotions_total',
      help: 'Tools the rules took out of a working set, by cause (idle, cap, revoked).',
      labelNames: ['cause'],
      registers,
    });
    this.querySeconds = new Histogram({
      name: 'mws_db_query_duration_seconds',
      help: 'Time of each query to the shared state database.',
      labelNames: ['ok'],
      buckets: QUERY_BUCKETS_S,
      registers,
    });
    new Gauge({
      name: 'mws_upstream_up',
      help: '1 when the upstream answers, 0 otherwise (starting, down, off, waiting for a sign-in or a value).',
      labelNames: ['upstream', 'status'],
      registers,
      collect() {
        this.reset();
        for (const u of parts()?.upstreams() ?? []) this.set({ upstream: u.vendor, status: u.status }, u.status === 'up' ? 1 : 0);
      },
    });
    new Gauge({
      name: 'mws_working_set_size',
      help: 'Tools in each agent working set.',
      labelNames: ['agent'],
      registers,
      collect() {
        this.reset();
        for (const s of parts()?.setSizes() ?? []) this.set({ agent: s.agent }, s.size);
      },
    });
    new Gauge({
      name: 'mws_approvals_waiting',
      help: 'Calls waiting for the user to approve them.',
      registers,
      collect() {
        this.set(parts()?.approvalsWaiting() ?? 0);
      },
    });
    new Gauge({
      name: 'mws_db_pool_connections',
      help: 'Connections of the shared database pool: total, idle, and requests waiting for one.',
      labelNames: ['state'],
      registers,
      collect() {
        const s = parts()?.pool?.();
        if (!s) return;
        this.set({ state: 'total' }, s.total);
        this.set({ state: 'idle' }, s.idle);
        this.set({ state: 'waiting' }, s.waiting);
      },
    });
  }

  /** The parts the gauges read from now on. */
  observe(parts: MetricsParts): void {
    this.parts = parts;
  }

  /** Records every call and search it passes on to `inner`. */
  recorder(inner: CallRecorder): CallRecorder {
    return {
      call: (r: CallRecord) => {
        this.requests.inc({ method: 'tools/call', agent: r.agent, ok: String(r.ok) });
        this.callSeconds.observe({ agent: r.agent }, r.ms / 1000);
        return inner.call(r);
      },
      search: (r: SearchRecord) => {
        this.requests.inc({ method: 'search_tools', agent: r.agent, ok: 'true' });
        inner.search(r);
      },
      droppedRecords: (agent) => inner.droppedRecords(agent),
      flush: () => inner.flush(),
      close: () => inner.close(),
    };
  }

  demoted(cause: string, count: number): void {
    this.demotions.inc({ cause }, count);
  }

  query(seconds: number, ok: boolean): void {
    this.querySeconds.observe({ ok: String(ok) }, seconds);
  }

  /** GET /metrics: the text exposition, to a caller holding the control token. */
  handler(authorized: (r: Request) => boolean): (r: Request) => Promise<Response> {
    return async (r) => {
      if (!authorized(r))
        return new Response('Metrics need the control token as a bearer token (stateDir/control-token); see docs/guide/team.md.\n', {
          status: 401,
          headers: { 'content-type': 'text/plain; charset=utf-8' },
        });
      const text = `${await this.registry.metrics()}\n${await processRegistry().metrics()}`;
      return new Response(text, { status: 200, headers: { 'content-type': this.registry.contentType } });
    };
  }
}
