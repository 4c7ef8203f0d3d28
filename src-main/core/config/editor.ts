// Config edits from the window, the tray or the ControlApi: a change is made to the file's own JSON,
// validated exactly as at start-up (a bad value is refused with its field and nothing is written),
// written atomically, and only then applied to the running core.
import { MwsError } from '../errors.js';
import { writeJsonAtomic } from '../store/atomicJson.js';
import type { Config } from './schema.js';
import { validateConfig } from './validate.js';

export type Raw = Record<string, unknown>;

export class ConfigEditor {
  private raw: Raw;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    /** Undefined when the running config did not come from a file that may be edited (the demo). */
    private readonly path: string | undefined,
    raw: Raw,
    private readonly stateDirDefault: string,
    /** Applies a validated config to the running core. */
    private readonly apply: (next: Config) => Promise<void>,
  ) {
    this.raw = structuredClone(raw);
  }

  get editable(): boolean {
    return this.path !== undefined;
  }

  current(): Raw {
    return structuredClone(this.raw);
  }

  /** Runs `mutate` on a copy of the file's JSON; edits are applied one at a time. */
  update(mutate: (raw: Raw) => void): Promise<Config> {
    const run = this.queue.then(async () => {
      if (!this.path) {
        throw new MwsError('usage', 'This instance runs the built-in demo without a config file, so settings cannot be saved. Start it with --config FILE to manage agents and upstreams here.');
      }
      const next = structuredClone(this.raw);
      mutate(next);
      const config = validateConfig(next, this.stateDirDefault); // throws config_invalid with the field
      await writeJsonAtomic(this.path, next);
      this.raw = next;
      await this.apply(config);
      return config;
    });
    this.queue = run.catch(() => {});
    return run;
  }
}
