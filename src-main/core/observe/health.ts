// What a load balancer or an orchestrator asks: /healthz (the process answers: alive) and /readyz
// (it can serve: the shared database answers, and the upstreams are reachable). Decided purely from
// what the parts report, so the rule is tested without a server. The answers name no upstream and no
// database address: they are served without a credential.
import type { UpstreamStatus } from '../upstream/types.js';

export type Readiness = {
  ready: boolean;
  /** `none`: the state folder, nothing to reach. */
  database: 'ok' | 'unreachable' | 'none';
  upstreams: { up: number; down: number; starting: number; off: number };
  /** Why not ready, in one sentence. */
  reason?: string;
};

/**
 * Ready when the database (if any) answers and the upstreams can be reached: once every enabled upstream
 * has been tried, at least one must be up. One upstream down does not take the replica out of the
 * balancer (every replica would share that fault, and the others still serve); all of them down does.
 */
export function decideReadiness(database: Readiness['database'], statuses: readonly UpstreamStatus[]): Readiness {
  const upstreams = { up: 0, down: 0, starting: 0, off: 0 };
  for (const s of statuses) {
    if (s === 'up') upstreams.up++;
    else if (s === 'starting') upstreams.starting++;
    else if (s === 'off') upstreams.off++;
    else upstreams.down++;
  }
  const enabled = statuses.length - upstreams.off;
  let reason: string | undefined;
  if (database === 'unreachable') reason = 'the state database cannot be reached';
  else if (upstreams.starting > 0 && upstreams.up === 0) reason = 'the upstreams are still starting';
  else if (enabled > 0 && upstreams.up === 0) reason = 'no upstream can be reached';
  return { ready: reason === undefined, database, upstreams, ...(reason ? { reason } : {}) };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });

export type HealthParts = {
  /** Resolves when the shared database answers; absent without one. */
  checkDatabase?: () => Promise<void>;
  upstreams: () => UpstreamStatus[];
};

export function healthHandlers(p: HealthParts): { alive: (r: Request) => Promise<Response>; ready: (r: Request) => Promise<Response> } {
  return {
    alive: async () => json(200, { alive: true }),
    ready: async () => {
      let database: Readiness['database'] = 'none';
      if (p.checkDatabase) {
        try {
          await p.checkDatabase();
          database = 'ok';
        } catch {
          database = 'unreachable';
        }
      }
      const r = decideReadiness(database, p.upstreams());
      return json(r.ready ? 200 : 503, r);
    },
  };
}
