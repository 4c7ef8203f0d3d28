// What the log says when an upstream does not list its tools: once per reason, in the words the
// window and the log use for a down upstream (downLog.ts). A down upstream is refreshed every
// catalogTtlMs and its connection logs the retries; one waiting for a value says so in its status
// (and the tray), not in the log; one that is down has its connection say why, so a second line with
// the SDK's "Version negotiation probe failed: fetch failed" would only repeat it less clearly.
import type { Config } from '../config/schema.js';
import type { Logger } from '../log.js';
import { downSentence } from './downLog.js';
import type { UpstreamStatus } from './types.js';

export class ListWarnings {
  /** The last sentence said per upstream. */
  private readonly said = new Map<string, string>();

  constructor(
    private readonly log: Logger,
    private readonly upstreams: () => Config['upstreams'],
  ) {}

  listed(vendor: string): void {
    this.said.delete(vendor);
  }

  /** A refresh's list failed; `quiet` (stopping) says nothing but remembers. */
  failed(vendor: string, err: unknown, status: UpstreamStatus, quiet: boolean): void {
    const said = `upstream "${vendor}" did not list its tools: ${this.why(vendor, err)}`;
    const waitsForValue = (err as { code?: unknown }).code === 'upstream_needs_value';
    if (!quiet && status !== 'down' && !waitsForValue && this.said.get(vendor) !== said) this.log.warn(said);
    this.said.set(vendor, said);
  }

  /** Relisted after a restart or a reconnect, it may not have come up at all: then its connection says why. */
  cameUpUnlisted(vendor: string, err: unknown, status: UpstreamStatus): void {
    if (status !== 'down') this.log.warn(`upstream "${vendor}" came up but did not list its tools: ${this.why(vendor, err)}`);
  }

  private why(vendor: string, err: unknown): string {
    const cfg = this.upstreams()[vendor];
    return cfg ? downSentence((err as Error).message, cfg) : (err as Error).message;
  }
}
