// When each agent last sent a request (a list or a call), on the core's clock. The working sets read it:
// the scheduled cycle changes an agent's list only once the agent has been quiet a while (workingset/quiet.ts).
export class AgentLastSeen {
  private readonly at = new Map<string, number>();

  touch(agent: string, now: number): void {
    this.at.set(agent, now);
  }

  last(agent: string): number | undefined {
    return this.at.get(agent);
  }
}
