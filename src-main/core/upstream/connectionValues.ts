// The values an upstream's config refers to (`${secret:…}`, `${input:…}`, `${env:…}`), read at each
// connect, and masked wherever the upstream's own words are shown: an error may quote its own key.
import type { UpstreamConfig } from '../config/schema.js';
import { MwsError } from '../errors.js';
import { maskValues, resolveUpstream, type ResolveParts } from '../secrets/refs.js';

/** With no store given, every reference is a value still missing. */
const NO_VALUES: ResolveParts = { secrets: { get: async () => undefined }, env: process.env };

export class ConnectionValues {
  /** Values the last start read from references: masked in every error and stderr line shown. */
  private secrets: string[] = [];
  /** What the config still needs from the user (status `needs-value`). */
  private missing: string[] = [];

  constructor(
    private readonly vendor: string,
    private readonly config: UpstreamConfig,
    private readonly parts: ResolveParts = NO_VALUES,
  ) {}

  /** The config with its references read (only now, when connecting), or the values it still needs. */
  async resolve(): Promise<UpstreamConfig> {
    const r = await resolveUpstream(this.vendor, this.config, this.parts);
    if (!r.ok) {
      this.missing = r.needs;
      throw new MwsError(
        'upstream_needs_value',
        `Upstream "${this.vendor}" needs a value: ${r.needs.join(', ')}. Fill it in on the Upstreams screen, or run \`mws upstream set ${this.vendor} ${r.needs[0]}\`.`,
        { vendor: this.vendor, needs: r.needs },
      );
    }
    this.missing = [];
    this.secrets = r.secrets;
    return r.config;
  }

  needs(): string[] {
    return [...this.missing];
  }

  /** `text` with the values read from references masked. */
  mask(text: string): string {
    return this.secrets.length ? maskValues(text, this.secrets) : text;
  }

  /** A chunk of the server's stderr, masked when there is anything to mask (else passed as it is). */
  maskChunk(chunk: Buffer): Buffer | string {
    return this.secrets.length ? maskValues(chunk.toString('utf8'), this.secrets) : chunk;
  }

  /** The error, its message masked where it quotes a secret value, so no log, reply or report shows it. */
  scrub(err: unknown): unknown {
    if (this.secrets.length && err instanceof Error) {
      const masked = maskValues(err.message, this.secrets);
      if (masked !== err.message) err.message = masked;
    }
    return err;
  }
}
