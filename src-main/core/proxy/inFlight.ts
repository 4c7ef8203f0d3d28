// Calls in flight per agent, counted by the router from the moment a call is forwarded (a call waiting
// for approval included). The working sets read it (the sweep skips a busy agent), so it is built
// before both and neither needs the other to count.
export class CallsInFlight {
  private readonly n = new Map<string, number>();

  count(agent: string): number {
    return this.n.get(agent) ?? 0;
  }

  enter(agent: string): void {
    this.n.set(agent, this.count(agent) + 1);
  }

  leave(agent: string): void {
    this.n.set(agent, this.count(agent) - 1);
  }
}
