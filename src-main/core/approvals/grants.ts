// Remembered approvals ("allow" for a tool at one definition hash), per agent. They are kept in the
// agent's state file next to its working set, but are their own concern: the gate and the ControlApi
// read and change them here, never through the working sets.
import { currentActor } from '../actor.js';
/** The definition hash the user allowed, when, and who (an operator signed in through the team's provider). */
export type Grant = { hash: string; at: number; by?: string };

/** Where an agent's grants live: a record this class changes in place, and how to persist it. */
export type GrantStore = {
  records(agent: string): Record<string, Grant>;
  save(agent: string): Promise<void>;
  /** The error to throw when a save failed (disk_full, state_unwritable); none: the error as it came. */
  failed?(err: unknown, what: string): Error;
};

export class ApprovalGrants {
  constructor(
    private readonly store: GrantStore,
    private readonly now: () => number,
  ) {}

  of(agent: string): Readonly<Record<string, Grant>> {
    return this.store.records(agent);
  }

  async grant(agent: string, tool: string, hash: string): Promise<void> {
    const by = currentActor()?.name;
    await this.change(agent, tool, { hash, at: this.now(), ...(by ? { by } : {}) });
  }

  async withdraw(agent: string, tool: string): Promise<void> {
    await this.change(agent, tool, undefined);
  }

  /**
   * Sets (or, undefined, removes) a grant and saves it; a save that fails puts the old one back and
   * throws: a grant the file does not hold would hold only until a restart.
   */
  private async change(agent: string, tool: string, next: Grant | undefined): Promise<void> {
    const records = this.store.records(agent);
    const had = records[tool];
    if (next) records[tool] = next;
    else delete records[tool];
    try {
      await this.store.save(agent);
    } catch (err) {
      const now = this.store.records(agent);
      if (had) now[tool] = had;
      else delete now[tool];
      throw this.store.failed?.(err, `the approval of ${tool}`) ?? err;
    }
  }
}
