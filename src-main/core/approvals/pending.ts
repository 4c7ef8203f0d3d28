// Calls waiting for the user's decision. Each waits up to the approval timeout; whoever decides (the
// window, a notification, `mws approve`) resolves every waiting call of that agent and tool.
// Waiting is bounded: any local client can send calls that wait, and each holds its arguments in
// memory until decided, so there is a cap per agent on how many wait and on their total size. Both are
// per agent, never one pool: calls on the open /mcp must not make every other agent's approvals fail.
// Agents come from the config only, so the whole is bounded by agents × agentBytes.
// What is kept for display is a truncated preview, never the full arguments.
import { randomUUID } from 'node:crypto';
import type { PendingCall } from './types.js';

export type { PendingCall } from './types.js';

/** `once`: run this call without remembering the tool as allowed; `{full}`: refused, the waiting room is full. */
export type Outcome = 'allow' | 'once' | 'deny' | 'timeout' | { full: string };

export type PendingLimits = {
  /** Calls one agent may have waiting at once. */
  perAgent: number;
  /** Total size of the arguments of one agent's waiting calls, in bytes of JSON. */
  agentBytes: number;
};

export const DEFAULT_PENDING_LIMITS: PendingLimits = { perAgent: 16, agentBytes: 8 * 1024 * 1024 };

/** How much of each string, array and nesting level the pending list shows. */
const PREVIEW = { string: 512, items: 20, keys: 40, depth: 5 };

type Waiter = PendingCall & { resolve: (o: Outcome) => void; timer: NodeJS.Timeout; bytes: number };

/** The arguments' size as JSON; Infinity when they cannot be serialized (too deep, cyclic). */
export function jsonBytes(v: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(v) ?? '');
  } catch {
    return Infinity;
  }
}

/** A bounded copy for display: long strings cut, long arrays and objects cut, deep levels elided. */
export function preview(v: unknown, depth = 0): unknown {
  if (typeof v === 'string')
    return v.length > PREVIEW.string ? `${v.slice(0, PREVIEW.string)}… (${v.length - PREVIEW.string} more characters)` : v;
  if (typeof v !== 'object' || v === null) return v;
  if (depth >= PREVIEW.depth) return Array.isArray(v) ? `[… ${v.length} items]` : '{…}';
  if (Array.isArray(v)) {
    const out: unknown[] = v.slice(0, PREVIEW.items).map((x) => preview(x, depth + 1));
    if (v.length > PREVIEW.items) out.push(`… ${v.length - PREVIEW.items} more items`);
    return out;
  }
  const entries = Object.entries(v);
  const out: Record<string, unknown> = {};
  for (const [k, x] of entries.slice(0, PREVIEW.keys)) out[k.length > 100 ? `${k.slice(0, 100)}…` : k] = preview(x, depth + 1);
  if (entries.length > PREVIEW.keys) out['…'] = `${entries.length - PREVIEW.keys} more fields`;
  return out;
}

export class PendingApprovals {
  private readonly waiting = new Map<string, Waiter>();
  private bytes = 0;
  /** Bytes held per agent (an agent with nothing waiting has no entry). */
  private readonly agentBytes = new Map<string, number>();

  constructor(
    /** How long a call waits; a function is read at each call, so a config edit applies to the next one. */
    private readonly timeoutMs: number | (() => number),
    private readonly now: () => number,
    private readonly onPending: (call: PendingCall) => void = () => {},
    private readonly limits: PendingLimits = DEFAULT_PENDING_LIMITS,
  ) {}

  /** Bytes of arguments held by waiting calls now (of one agent, or of all). */
  get heldBytes(): number {
    return this.bytes;
  }

  heldBytesOf(agent: string): number {
    return this.agentBytes.get(agent) ?? 0;
  }

  list(agent?: string): PendingCall[] {
    return [...this.waiting.values()]
      .filter((w) => !agent || w.agent === agent)
      .map(({ resolve: _r, timer: _t, bytes: _b, ...call }) => call);
  }

  count(agent: string): number {
    let n = 0;
    for (const w of this.waiting.values()) if (w.agent === agent) n++;
    return n;
  }

  wait(agent: string, tool: string, args: Record<string, unknown>, withdrawn: boolean, signal?: AbortSignal): Promise<Outcome> {
    // A caller that is already gone (its client cancelled or closed) is not put in the inbox at all.
    if (signal?.aborted) return Promise.resolve('deny');
    const bytes = jsonBytes(args);
    if (this.count(agent) >= this.limits.perAgent) {
      return Promise.resolve({
        full: `${tool} was not run: ${this.limits.perAgent} calls of this agent are already waiting for the user's approval. Wait for the user to answer them, then call again.`,
      });
    }
    if (this.heldBytesOf(agent) + bytes > this.limits.agentBytes) {
      return Promise.resolve({
        full: `${tool} was not run: this agent's calls waiting for the user's approval already hold the most argument data Working Set keeps per agent (${Math.round(this.limits.agentBytes / 1024 / 1024)} MB), or these arguments alone are too large to wait. Wait for the user to answer, or send smaller arguments.`,
      });
    }
    return new Promise<Outcome>((resolve) => {
      const id = randomUUID();
      const finish = (o: Outcome) => {
        const w = this.waiting.get(id);
        if (!w) return;
        clearTimeout(w.timer);
        this.waiting.delete(id);
        this.bytes -= w.bytes;
        const left = this.heldBytesOf(agent) - w.bytes;
        if (left > 0) this.agentBytes.set(agent, left);
        else this.agentBytes.delete(agent);
        resolve(o);
      };
      const timer = setTimeout(() => finish('timeout'), typeof this.timeoutMs === 'function' ? this.timeoutMs() : this.timeoutMs);
      timer.unref();
      const shown = preview(args) as Record<string, unknown>;
      const call: Waiter = {
        id,
        agent,
        tool,
        arguments: shown,
        argumentBytes: bytes,
        since: this.now(),
        withdrawn,
        resolve: finish,
        timer,
        bytes,
      };
      this.bytes += bytes;
      this.agentBytes.set(agent, this.heldBytesOf(agent) + bytes);
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
    const { resolve: _r, timer: _t, bytes: _b, ...call } = w;
    w.resolve(outcome);
    return call;
  }

  close(): void {
    for (const w of this.waiting.values()) w.resolve('deny');
  }
}
