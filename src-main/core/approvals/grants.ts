// Remembered approvals ("allow" for a tool at one definition hash), per agent. They are kept in the
// agent's state file next to its working set, but are their own concern: the gate and the ControlApi
// read and change them here, never through the working sets.
/** The definition hash the user allowed, and when. */
export type Grant = { hash: string; at: number };

/** Where an agent's grants live: a record this class changes in place, and how to persist it. */
export type GrantStore = {
  records(agent: string): Record<string, Grant>;
  save(agent: string): Promise<void>;
};

export class ApprovalGrants {
  constructor(private readonly store: GrantStore, private readonly now: () => number) {}

  of(agent: string): Readonly<Record<string, Grant>> {
    return this.store.records(agent);
  }

  async grant(agent: string, tool: string, hash: string): Promise<void> {
    this.store.records(agent)[tool] = { hash, at: this.now() };
    await this.store.save(agent);
  }

  async withdraw(agent: string, tool: string): Promise<void> {
    delete this.store.records(agent)[tool];
    await this.store.save(agent);
  }
}
