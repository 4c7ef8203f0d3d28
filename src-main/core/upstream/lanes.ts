// One change at a time per upstream: a restart, a reconnect, or turning it on or off closes the
// connection and opens a new one, and two of them interleaved each opened one (the first one's process
// kept running, unreachable). A change asked while the same change is still waiting joins it.
import { SerialQueue } from '../serial.js';

type Lane = { queue: SerialQueue; running: number; waiting: Map<string, Promise<unknown>> };

export class UpstreamLanes {
  private readonly lanes = new Map<string, Lane>();

  /**
   * Runs `task` once the vendor's earlier changes are done. With `join`, a task of the same kind that
   * is queued and not yet started is answered for this one too: 200 restarts asked at once restart twice.
   */
  run<T>(vendor: string, task: () => Promise<T>, join?: string): Promise<T> {
    let lane = this.lanes.get(vendor);
    if (!lane) this.lanes.set(vendor, (lane = { queue: new SerialQueue(), running: 0, waiting: new Map() }));
    const joined = join === undefined ? undefined : lane.waiting.get(join);
    if (joined) return joined as Promise<T>;
    const l = lane;
    l.running++;
    const result = l.queue
      .run(() => {
        if (join !== undefined && l.waiting.get(join) === result) l.waiting.delete(join);
        return task();
      })
      .finally(() => {
        // An idle lane is dropped: removed upstreams leave nothing behind.
        if (--l.running === 0 && this.lanes.get(vendor) === l) this.lanes.delete(vendor);
      });
    if (join !== undefined) l.waiting.set(join, result);
    return result;
  }

  /** How many changes of one upstream are running or waiting. */
  depth(vendor: string): number {
    return this.lanes.get(vendor)?.running ?? 0;
  }
}
