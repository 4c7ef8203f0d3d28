// Reading usage for the rules: the calls, transcripts and pin files gained since the last read,
// persisted with the cursors. One read at a time: a reader arriving while a read is in flight (a
// report, the cycle) waits for it and then for one more read begun after it asked, which every reader
// arriving meanwhile shares: each sees every record made before it asked, and reads never overlap.
import type { Config } from '../config/schema.js';
import type { UsageStore } from '../usage/usageStore.js';
import type { PinSources } from './pinSources.js';
import type { Logger } from '../log.js';
import { isDiskFull } from '../store/writeFailure.js';

export class UsageIngest {
  private ingesting: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  /** Told after each read that succeeded (the report reads ahead then: control/report/reportControl.ts). */
  readonly read = new Set<() => void>();
  /** The latest waiting reader's time, for the read begun for them. */
  private queuedNow = 0;

  constructor(
    private readonly o: {
      config: Config;
      usage: UsageStore;
      pins: PinSources;
      markUsed: (agent: string, tool: string, ts: number) => void;
      log?: Logger;
    },
  ) {}

  run(now: number): Promise<void> {
    if (!this.ingesting) return this.begin(now);
    this.queuedNow = now;
    if (!this.queued) {
      const queued: Promise<void> = this.ingesting
        .catch(() => {})
        .then(() => {
          if (this.queued === queued) this.queued = undefined;
          // Another reader may have begun one since: it began after these asked, so it serves them.
          return this.ingesting ?? this.begin(this.queuedNow);
        });
      this.queued = queued;
    }
    return this.queued;
  }

  private begin(now: number): Promise<void> {
    // Who asks from now on asked after this read began: they wait for the next one.
    this.queued = undefined;
    const read = this.ingestNow(now).finally(() => {
      if (this.ingesting === read) this.ingesting = undefined;
    });
    this.ingesting = read;
    return read;
  }

  private async ingestNow(now: number): Promise<void> {
    const used = [
      ...(await this.o.usage.ingestCallLog()),
      ...(await this.o.usage.ingestTranscripts(this.o.config.transcripts, this.o.config.serverName)),
    ];
    for (const u of used) this.o.markUsed(u.agent, u.tool, u.ts);
    // The cursors move on disk only with what they read (lastUsed included), in one atomic write.
    // On a full disk the file keeps its old cursors, and the next start reads those calls again: what
    // was read stays right in memory, so a report or a cycle goes on.
    try {
      await this.o.usage.save();
    } catch (err) {
      if (!isDiskFull(err)) throw err;
      this.o.log?.warn(
        'usage.json could not be saved (the disk is full); the calls since are read again from calls.jsonl at the next start.',
      );
    }
    await this.o.pins.readFiles(now);
    this.read.forEach((f) => f());
  }
}
