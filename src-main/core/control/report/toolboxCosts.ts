// What listing the whole toolbox costs, the report's yardstick, counted once per toolbox and
// description setting, and counted ahead of the first report: once the toolbox has stayed the same
// for a while after a change, its definitions are tokenized in the background (in the tokenizer's
// process), so the first report finds every count cached as a later one does, and the socket never
// waits for it.
import type { Tool } from '@modelcontextprotocol/client';
import { every, type Clock } from '../../clock.js';
import type { Toolbox } from '../../toolbox/toolbox.js';
import { listingCost, tokenizerStats } from './report.js';
import { TokenCountFile } from './tokenCounts.js';

export type ToolboxCost = { bytes: number; tokens: number; tools: number };

/**
 * How long the toolbox must stay the same before it is counted: upstreams connect one by one at start
 * and each changes the toolbox; counting each step would tokenize most tools several times.
 */
export const COUNT_AHEAD_QUIET_MS = 10_000;

export class ToolboxCosts {
  /** Token counts by definition, kept in the state folder across restarts. */
  readonly counts: TokenCountFile;
  private readonly byToolbox = new WeakMap<object, Map<boolean, Promise<ToolboxCost>>>();
  private stopWatch: (() => void) | undefined;
  private lastSeen: object | undefined;
  private stopped = false;

  constructor(
    private readonly p: {
      stateDir: string | undefined;
      toolbox: () => Toolbox;
      compact: () => boolean;
      metaTools: () => Tool[];
      clock: Clock;
      /** A background count that failed (it is only a head start: the report counts again). */
      failed?: (err: Error) => void;
      /** A background count that tokenized something is over: seconds of work no request asked for (the app collects after it). */
      counted?: () => void;
    },
  ) {
    this.counts = new TokenCountFile(p.stateDir);
  }

  /** The cost of listing every tool of the current toolbox with the current description setting. */
  whole(): Promise<ToolboxCost> {
    const tb = this.p.toolbox();
    const compact = this.p.compact();
    let byFlag = this.byToolbox.get(tb);
    if (!byFlag) this.byToolbox.set(tb, (byFlag = new Map()));
    let cost = byFlag.get(compact);
    if (!cost) {
      const all = [...this.p.metaTools(), ...[...tb.all()].map((e) => tb.listed(e, compact))];
      cost = listingCost(all, this.counts).then((c) => ({ ...c, tools: tb.size }));
      byFlag.set(compact, cost);
      cost.catch(() => byFlag.delete(compact));
    }
    return cost;
  }

  /**
   * The toolbox changed: count it once it has stayed the same for a whole quiet spell (on the
   * injected clock; no timer runs while nothing changes).
   */
  changed(): void {
    if (this.stopped) return;
    this.stopWatch ??= every(this.p.clock, COUNT_AHEAD_QUIET_MS, () => {
      const tb = this.p.toolbox();
      if (tb !== this.lastSeen) {
        this.lastSeen = tb;
        return;
      }
      this.endWatch();
      const before = tokenizerStats().tokenized;
      this.whole()
        .then(() => {
          // Definitions all counted before (a restart) are a few milliseconds: nothing to give back.
          if (tokenizerStats().tokenized !== before) this.p.counted?.();
          return this.stopped ? undefined : this.counts.save();
        })
        .catch((err: Error) => this.p.failed?.(err));
    });
  }

  /** No more counting ahead, and no file written by one still running. */
  stop(): void {
    this.stopped = true;
    this.endWatch();
  }

  private endWatch(): void {
    this.stopWatch?.();
    this.stopWatch = undefined;
  }
}
