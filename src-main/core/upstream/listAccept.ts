// Taking a new tool list into the last-good catalog: lists are accepted one at a time, in the order
// they were asked for, so a slow list asked before a newer one cannot overwrite it.
import type { Tool } from '@modelcontextprotocol/client';
import { SerialQueue } from '../serial.js';
import { mergeListed, type Listed } from './listMerge.js';

/** One upstream's last-good list (listMerge.ts), where it came from and when it was listed. */
export type ListState = Listed & { source: 'live' | 'file' | 'none'; listedAt: number };

export type ListAcceptorParts = {
  state: Map<string, ListState>;
  /** The catalog stopped: lists are for nobody. */
  stopped: () => boolean;
  now: () => number;
  /** A list of `vendor` arrived: callers waiting for it go on. */
  arrived: (vendor: string) => void;
};

export class ListAcceptor {
  private readonly queue = new SerialQueue();
  /** Numbers lists in the order they were asked for (a change notification's list: when it arrived). */
  private seq = 0;
  private readonly acceptedSeq = new Map<string, number>();

  constructor(private readonly p: ListAcceptorParts) {}

  /** The number of a list about to be asked for. */
  next(): number {
    return ++this.seq;
  }

  /**
   * Records a successful list; answers whether the tools differ from what was known. Each tool is
   * compared by its JSON with the one of the same name before; an unchanged tool keeps its object,
   * so its hash and listing are not computed again (toolbox/hash.ts, Toolbox.listed). At 5,000 tools
   * the comparison takes tens of ms: it runs in slices with the event loop free between them.
   */
  accept(vendor: string, tools: Tool[], seq = this.next()): Promise<boolean> {
    return this.queue.run(() => {
      if (seq < (this.acceptedSeq.get(vendor) ?? 0)) return false;
      this.acceptedSeq.set(vendor, seq);
      return this.inSlices(vendor, tools);
    });
  }

  private async inSlices(vendor: string, tools: Tool[]): Promise<boolean> {
    const s = this.p.state.get(vendor);
    if (!s || this.p.stopped()) return false;
    queueMicrotask(() => this.p.arrived(vendor));
    s.source = 'live';
    s.listedAt = this.p.now();
    // The upstream was removed (or the catalog stopped) meanwhile: this list is for nobody.
    const merged = await mergeListed(s, tools, () => this.p.stopped() || this.p.state.get(vendor) !== s);
    if (!merged) return false;
    if ('same' in merged) {
      s.digests ??= merged.digests;
      return false;
    }
    s.tools = merged.tools;
    s.digests = merged.digests;
    return true;
  }
}
