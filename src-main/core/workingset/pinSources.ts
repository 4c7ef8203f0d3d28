// Where pins come from: the config (global and the agent's), the seed working-set file, and pin
// files. Pin files are read by the cycle; each is remembered from when it was first seen, so its pin
// can decay (pin-files.json).
import { join } from 'node:path';
import type { AgentConfig, Config } from '../config/schema.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import { readJsonSafe, writeJsonAtomic } from '../store/atomicJson.js';
import { fits, seenFilesSchema } from '../store/shapes.js';
import { readPinFiles } from '../usage/pinFiles.js';
import type { SeedWorkingSetFile } from './seedFile.js';
import type { PinSource } from './types.js';

const PIN_FILES_SEEN = 'pin-files.json';

export class PinSources {
  private seen: Record<string, number> = {};
  private filePins: string[] = [];
  /** Until the cycle has read the pin files once, their pins are left as they are. */
  filesRead = false;

  constructor(private readonly o: { config: Config; seed: SeedWorkingSetFile; clock: Clock; log: Logger }) {}

  async load(): Promise<void> {
    const seen = await readJsonSafe(join(this.o.config.stateDir, PIN_FILES_SEEN), this.o.log, fits(seenFilesSchema));
    if (seen.kind === 'ok') this.seen = seen.value;
  }

  /** What fixed() is made of: the same objects while none of them changed. */
  fixedInputs(agent: AgentConfig): readonly unknown[] {
    return [this.o.config.pins, agent.pins, this.o.seed.current()];
  }

  /** Pins that never decay: the config's (global and the agent's) and the seed working-set file. */
  fixed(agent: AgentConfig): Map<string, Exclude<PinSource, 'file'>> {
    const m = new Map<string, Exclude<PinSource, 'file'>>();
    for (const t of [...this.o.config.pins, ...agent.pins]) m.set(t, 'config');
    for (const t of this.o.seed.current()) if (!m.has(t)) m.set(t, 'seed');
    return m;
  }

  /** Reads the pin files, and records when each new one was first seen. */
  async readFiles(now: number): Promise<void> {
    this.filePins = await readPinFiles(this.o.config.pinFiles);
    this.filesRead = true;
    let changed = false;
    // First seen now, even when a dry run asks about a future time.
    const seenAt = Math.min(now, this.o.clock.now());
    for (const p of this.filePins) {
      if (this.seen[p] === undefined) {
        this.seen[p] = seenAt;
        changed = true;
      }
    }
    if (changed) await writeJsonAtomic(join(this.o.config.stateDir, PIN_FILES_SEEN), this.seen);
  }

  /** The pin files' tools, each with when it was first seen. */
  files(): Map<string, number> {
    return new Map(this.filePins.map((p) => [p, this.seen[p] ?? this.o.clock.now()]));
  }
}
