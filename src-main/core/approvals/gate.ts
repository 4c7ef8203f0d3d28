// The approval gate every forwarded call passes: decides from the agent's mode and grants, waits for
// the user when it must, and remembers an allow.
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { Config } from '../config/schema.js';
import type { ToolEntry } from '../toolbox/toolbox.js';
import type { ApprovalGrants } from './grants.js';
import { toolError } from '../toolResults.js';
import { decideApproval, type ApprovalVerdict } from './policy.js';
import type { Outcome, PendingApprovals } from './pending.js';
import { keepAliveWhileWaiting, type ProgressSender } from './keepAlive.js';
import { ApprovalRetries, callKey } from './retries.js';

export class ApprovalGate {
  /** Calls whose client was answered before the user decided, for their retries. */
  readonly retries: ApprovalRetries;

  constructor(
    private config: Config,
    readonly grants: ApprovalGrants,
    readonly pending: PendingApprovals,
    private readonly now: () => number = Date.now,
    /** How often a waiting call sends progress (tests shorten it). */
    private readonly keepAliveMs?: number,
  ) {
    this.retries = new ApprovalRetries(now, config.timeouts.approvalMs);
  }

  /** The config in force from now on (the app's reconfigure: a new object, never one changed in place). */
  reconfigure(next: Config): void {
    this.config = next;
  }

  /** What a call would meet now, without waiting or changing anything (call_tool's dryRun). */
  preview(agent: string, entry: ToolEntry): ApprovalVerdict {
    const mode = this.config.agents.find((a) => a.id === agent)?.approvals ?? 'ask';
    return decideApproval(mode, entry, this.grants.of(agent)[entry.name]);
  }

  /** Undefined when the call may run; otherwise the answer to give instead. */
  async check(
    agent: string,
    entry: ToolEntry,
    args: Record<string, unknown> | undefined,
    signal?: AbortSignal,
    progress?: ProgressSender,
  ): Promise<CallToolResult | undefined> {
    const mode = this.config.agents.find((a) => a.id === agent)?.approvals ?? 'ask';
    const verdict = decideApproval(mode, entry, this.grants.of(agent)[entry.name]);
    if (verdict.kind === 'run') return undefined;
    if (verdict.kind === 'refuse') return toolError(verdict.message);
    if (verdict.withdrawn) await this.grants.withdraw(agent, entry.name);
    const a = args ?? {};
    const key = callKey(agent, entry.name, a);
    const earlier = this.retries.take(key);
    if (earlier === 'once') return undefined;
    if (earlier === 'deny') return toolError(denied(entry.name));
    const outcome = await this.waitForUser(agent, entry, a, key, verdict.withdrawn, signal, progress);
    if (outcome === 'once') return undefined;
    if (typeof outcome === 'object') return toolError(outcome.full);
    // "Always allow" was stored by allow() for the definition the user saw when deciding; this call's
    // entry may be older (the tool was redefined while it waited): granting it here would put the
    // old hash back, and the next call would ask again after the answer said it would not.
    if (outcome === 'allow') return undefined;
    if (outcome === 'deny') return toolError(denied(entry.name));
    if (outcome === 'answered') return toolError(stillWaiting(entry.name, agent, this.config.timeouts.approvalMs));
    const secs = Math.round(this.config.timeouts.approvalMs / 1000);
    return toolError(
      `${entry.name} needs the user's approval before its first run, and none came within ${secs} s, so it was not run. ` +
        `Ask the user to allow it (the Working Set window, or \`mws approve ${entry.name} --agent ${agent}\`), then call it again.`,
    );
  }

  /**
   * Waits in the inbox (joining the entry of the same call if a retry) until the user decides, or until
   * the client must be answered (`answered`): the entry then stays for the user, and for the retry.
   */
  private async waitForUser(
    agent: string,
    entry: ToolEntry,
    args: Record<string, unknown>,
    key: string,
    withdrawn: boolean,
    signal?: AbortSignal,
    progress?: ProgressSender,
  ): Promise<Outcome | 'answered'> {
    let outcome = this.retries.joined(key);
    const retry = outcome !== undefined;
    // Only the first request may take the entry out of the inbox by going away, and only while it waits:
    // after it was answered (or for a retry) the entry is the user's to decide.
    const leave = new AbortController();
    const onAbort = () => leave.abort();
    if (!outcome) {
      if (signal?.aborted) return 'deny';
      outcome = this.pending.wait(agent, entry.name, args, withdrawn, leave.signal);
      this.retries.opened(key, outcome);
      signal?.addEventListener('abort', onAbort, { once: true });
    }
    const detach = this.retries.attach(key);
    const answerMs = this.config.timeouts.approvalAnswerMs;
    const stop = keepAliveWhileWaiting({
      send: progress,
      tool: entry.name,
      waitMs: Math.min(answerMs, this.config.timeouts.approvalMs),
      now: this.now,
      ...(this.keepAliveMs ? { everyMs: this.keepAliveMs } : {}),
    });
    let timer: NodeJS.Timeout | undefined;
    const answerBy = new Promise<'answered'>((resolve) => {
      timer = setTimeout(() => resolve('answered'), answerMs);
      timer.unref();
    });
    // A retry whose client goes away stops waiting; the entry stays.
    const gone =
      signal && retry
        ? new Promise<'answered'>((resolve) => signal.addEventListener('abort', () => resolve('answered'), { once: true }))
        : undefined;
    try {
      return await Promise.race([outcome, answerBy, ...(gone ? [gone] : [])]);
    } finally {
      clearTimeout(timer);
      stop();
      detach();
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * Lets run the calls of `agent` waiting here that its grants now cover: a grant made elsewhere (on
   * another replica, read back with the agent's state). Answers the tools whose calls it released.
   */
  releaseGranted(agent: string, entryOf: (tool: string) => ToolEntry | undefined): string[] {
    const mode = this.config.agents.find((a) => a.id === agent)?.approvals ?? 'ask';
    const released = new Set<string>();
    for (const call of this.pending.list(agent)) {
      const entry = entryOf(call.tool);
      if (!entry || decideApproval(mode, entry, this.grants.of(agent)[entry.name]).kind !== 'run') continue;
      if (this.pending.decideOne(call.id, 'allow')) released.add(call.tool);
    }
    return [...released];
  }

  /** The user allows a tool ahead of its first call (or answers calls waiting for it). */
  async allow(agent: string, entry: ToolEntry): Promise<number> {
    await this.grants.grant(agent, entry.name, entry.hash);
    return this.pending.decide(agent, entry.name, 'allow');
  }

  /** Runs the waiting calls (one, by id, or all of the tool's) without remembering the tool. */
  allowOnce(agent: string, tool: string, id?: string): number {
    if (id) return this.pending.decideOne(id, 'once') ? 1 : 0;
    return this.pending.decide(agent, tool, 'once');
  }

  /** Denies the waiting calls and withdraws a standing grant, so the tool asks again next time. */
  async deny(agent: string, tool: string, id?: string): Promise<{ decided: number; withdrawn: boolean }> {
    const decided = id ? (this.pending.decideOne(id, 'deny') ? 1 : 0) : this.pending.decide(agent, tool, 'deny');
    const withdrawn = await this.revoke(agent, tool);
    return { decided, withdrawn };
  }

  /** Withdraws a standing grant; answers whether there was one. */
  async revoke(agent: string, tool: string): Promise<boolean> {
    if (!this.grants.of(agent)[tool]) return false;
    await this.grants.withdraw(agent, tool);
    return true;
  }
}

function denied(tool: string): string {
  return `The user did not allow ${tool} for this agent, so it was not run. Do not retry it unless the user asks.`;
}

/** The answer to a client that cannot wait longer: what happens, and what to do. */
export function stillWaiting(tool: string, agent: string, approvalMs: number): string {
  const mins = Math.max(1, Math.round(approvalMs / 60_000));
  return (
    `${tool} has not run yet: it waits for the user's approval (in the Working Set window, or \`mws approve ${tool} --agent ${agent}\`). ` +
    `The request stays in the user's inbox for up to ${mins} min. Tell the user it needs approval; once they allow it, call ${tool} again with the same arguments and it runs at once.`
  );
}
