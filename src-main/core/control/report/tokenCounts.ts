// Token counts of listed tool definitions, kept across restarts in `token-counts.json` in the state
// folder: a report after a restart (or from a CLI with no instance running) tokenizes only definitions
// it has never seen, and loads no tokenizer at all when it has seen them all.
import { textDigest } from '../../textDigest.js';
import { readTextPaged } from '../../pagedBytes.js';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { SerialQueue } from '../../serial.js';
import { writeFileAtomicSynced } from '../../store/atomicJson.js';

export type Cost = { bytes: number; tokens: number };

/** The tokenizer the counts were made with: counts made by another are not reused. */
export const ENCODING = 'o200k_base';
const FILE = 'token-counts.json';
/** Definitions kept at most: a toolbox of 20,000 tools, each listed both full and compact. */
export const MAX_ENTRIES = 50_000;

type Stored = { version: 1; encoding: string; counts: Record<string, [number, number]> };

/** The key of a definition: its listed JSON, hashed (the same text always costs the same). */
export function definitionKey(json: string): string {
  return textDigest(json);
}

export class TokenCountFile {
  /** Least recently used first out past MAX_ENTRIES. */
  private counts = new LRUCache<string, [number, number]>({ max: MAX_ENTRIES });
  private loaded: Promise<void> | undefined;
  private dirty = false;
  private readonly writing = new SerialQueue();

  constructor(private readonly stateDir: string | undefined) {}

  /** Reads the file once; a missing, damaged or foreign file is an empty cache (it is only a cache). */
  load(): Promise<void> {
    this.loaded ??= (async () => {
      if (!this.stateDir) return;
      try {
        const v = JSON.parse(await readTextPaged(join(this.stateDir, FILE))) as Stored;
        if (v?.version !== 1 || v.encoding !== ENCODING || typeof v.counts !== 'object' || v.counts === null) return;
        for (const [k, c] of Object.entries(v.counts)) {
          if (Array.isArray(c) && c.length === 2 && Number.isInteger(c[0]) && Number.isInteger(c[1])) this.counts.set(k, [c[0], c[1]]);
        }
      } catch {
        // missing or unreadable: counted again, and written anew
      }
    })();
    return this.loaded;
  }

  has(key: string): boolean {
    return this.counts.has(key);
  }

  get(key: string): Cost | undefined {
    const c = this.counts.get(key);
    if (!c) return undefined;
    return { bytes: c[0], tokens: c[1] };
  }

  set(key: string, cost: Cost): void {
    this.counts.set(key, [cost.bytes, cost.tokens]);
    this.dirty = true;
  }

  get size(): number {
    return this.counts.size;
  }

  /**
   * Writes the file if anything new was counted; one write at a time. Renamed into place but not
   * fsync'd: a cache lost in a crash is only counted again.
   */
  save(): Promise<void> {
    if (!this.stateDir || !this.dirty) return this.writing.idle();
    this.dirty = false;
    const value: Stored = { version: 1, encoding: ENCODING, counts: Object.fromEntries(this.counts.rentries()) };
    const path = join(this.stateDir, FILE);
    return this.writing.run(() =>
      writeFileAtomicSynced(path, JSON.stringify(value), 0o600, { fsync: false }).catch(() => {
        this.dirty = true; // tried again after the next report
      }),
    );
  }
}
