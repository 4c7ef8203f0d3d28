// Calls waiting for the user's decision. Each waits up to the approval timeout; whoever decides (the
// window, a notification, `mws approve`) resolves every waiting call of that agent and tool.
import { randomUUID } from 'node:crypto';
import type { PendingCall } from './types.js';

export type { PendingCall } from './types.js';


/** `once`: run this call without remembering the tool as allowed. */
export type Outcome = 'allow' | 'once' | 'deny' | 'timeout';

type Waiter = PendingCall & { resolve: (o: Outcome) => void; timer: NodeJS.Timeout };

export class PendingApprovals {
  private readonly waiting = new Map<string, Waiter>();

  constructor(
    private readonly timeoutMs: number,
    private readonly now: () => number,
    private readonly onPending: (call: PendingCall) => void = () => {},
  ) {}

  list(agent?: string): PendingCall[] {
    return [...this.waiting.values()]
      .filter((w) => !agent || w.agent === agent)
      .map(({ resolve: _r, timer: _t, ...call }) => call);
  }

  count(agent: string): number {
    let n = 0;
    for (const w of this.waiting.values()) if (w.agent === agent) n++;
    return n;
  }

  wait(agent: string, tool: string, args: Record<string, unknown>, withdrawn: boolean, signal?: AbortSignal): Promise<Outcome> {
    return new Promise<Outcome>((resolve) => {
      const id = randomUUID();
      const finish = (o: Outcome) => {
        const w = this.waiting.get(id);
        if (!w) return;
        clearTimeout(w.timer);
        this.waiting.delete(id);
        resolve(o);
      };
      const timer = setTimeout(() => finish('timeout'), this.timeoutMs);
      timer.unref();
      const call: Waiter = { id, agent, tool, arguments: args, since: this.now(), withdrawn, resolve: finish, timer };
      this.waiting.set(id, call);
      signal?.addEventListener('abort', () => finish('deny'), { once: true });
      this.onPending(this.list().find((c) => c.id === id)!);
    });
  }

  /** Decides every waiting call of `agent` (any agent when undefined) for `tool`; answers how many. */
  decide(agent: string | undefined, tool: string, outcome: 'allow' | 'once' | 'deny'): number {
    let n = 0;
    for (const w of [...this.waiting.values()]) {
      if (w.tool === tool && (!agent || w.agent === agent)) {
        w.resolve(outcome);
        n++;
      }
    }
    return n;
  }

  /** Decides one waiting call by id. */
  decideOne(id: string, outcome: 'allow' | 'once' | 'deny'): PendingCall | undefined {
    const w = this.waiting.get(id);
    if (!w) return undefined;
    const { resolve: _r, timer: _t, ...call } = w;
    w.resolve(outcome);
    return call;
  }

  close(): void {
    for (const w of this.waiting.values()) w.resolve('deny');
  }
}
