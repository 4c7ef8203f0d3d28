// stateDir/catalog.json: every upstream's last successful list, read at start (a dead upstream still
// shows the tools it had) and written a little after each change, off the request path.
import type { Tool } from '@modelcontextprotocol/client';
import type { Logger } from '../log.js';
import { readJsonSafe, writePiecesAtomic } from '../store/atomicJson.js';
import { SerialQueue } from '../serial.js';
import { TimeSlicer } from '../timeSlice.js';
import { plainTool } from './toolList.js';
import { shareStrings } from '../sharedStrings.js';

export const CATALOG_FILE = 'catalog.json';
/** catalog.json is written this long after the change that needs it, off the request path; flush() writes it at once. */
export const CATALOG_SAVE_DELAY_MS = 1000;
/** Work on a list holds the event loop this long at most before letting calls through. */
export const ACCEPT_SLICE_MS = 4;
/** Tools handled between looks at the clock: few enough that each look comes well inside a slice. */
export const ACCEPT_CHECK_EVERY = 64;

type CatalogFileShape = { savedAt: string; upstreams: Record<string, { tools: Tool[] }> };

function isCatalogFile(v: unknown): v is CatalogFileShape {
  if (typeof v !== 'object' || v === null) return false;
  const u = (v as { upstreams?: unknown }).upstreams;
  if (typeof u !== 'object' || u === null) return false;
  return Object.values(u).every((e) => typeof e === 'object' && e !== null && Array.isArray((e as { tools?: unknown }).tools));
}

/** The lists to save, by upstream name; taken when a save starts (a change replaces a list, never edits it). */
type Lists = () => Array<readonly [string, readonly Tool[]]>;

export class CatalogFile {
  private timer: NodeJS.Timeout | undefined;
  private readonly saving = new SerialQueue();
  private stopped = false;

  constructor(
    private readonly path: string,
    private readonly log: Logger,
    private readonly now: () => number,
    private readonly lists: Lists,
  ) {}

  /**
   * The saved lists of the upstreams `wanted` (an upstream removed since is not made ready for nothing),
   * made plain and with their repeated texts kept once; empty when there is no good file.
   */
  async read(wanted: Iterable<string>): Promise<Map<string, Tool[]>> {
    const saved = await readJsonSafe(this.path, this.log, isCatalogFile);
    const out = new Map<string, Tool[]>();
    if (saved.kind !== 'ok') return out;
    for (const name of wanted) {
      const entry = Object.hasOwn(saved.value.upstreams, name) ? saved.value.upstreams[name] : undefined;
      if (!entry) continue;
      // A file saved before tools were made plain text at listing (toolList.ts) is made plain here.
      const tools = entry.tools.map(plainTool);
      shareStrings(tools);
      out.set(name, tools);
    }
    return out;
  }

  /** A save CATALOG_SAVE_DELAY_MS from now, unless one already waits. */
  schedule(): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.save();
    }, CATALOG_SAVE_DELAY_MS);
    this.timer.unref();
  }

  /** Writes a save that is waiting, and waits for one under way. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      await this.save();
    }
    await this.saving.idle();
  }

  /** No save is scheduled after this; one waiting is still written by flush(). */
  stop(): void {
    this.stopped = true;
  }

  /** Compact; serialized tool by tool in slices, each tool's JSON on its way to the file as it comes. */
  save(): Promise<void> {
    const lists = this.lists();
    const savedAt = new Date(this.now()).toISOString();
    return this.saving.run(async () => {
      const slicer = new TimeSlicer({ sliceMs: ACCEPT_SLICE_MS, checkEvery: ACCEPT_CHECK_EVERY });
      await writePiecesAtomic(this.path, async (write) => {
        await write(`{"savedAt":${JSON.stringify(savedAt)},"upstreams":{`);
        let upstream = '';
        for (const [name, tools] of lists) {
          await write(`${upstream}${JSON.stringify(name)}:{"tools":[`);
          upstream = ',';
          let tool = '';
          for (const t of tools) {
            await slicer.maybeYield();
            await write(tool + JSON.stringify(t));
            tool = ',';
          }
          await write(']}');
        }
        await write('}}\n');
      }).catch((err: Error) => this.log.warn(`could not save ${this.path}: ${err.message}`));
    });
  }
}
