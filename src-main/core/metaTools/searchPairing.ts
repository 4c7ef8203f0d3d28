// Which calls may teach search (learning.ts): only a call from the same client connection as the
// search before it, to a tool that search showed. Searches in other client processes of one agent, or
// a call to a tool the search never offered, were pairing up and teaching unrelated words
// ("everything__echo" learned "graph, knowledge"). Decided here, where the connection is known.
import type { CallContext } from './handler.js';

/** One client connection: its name and its MCP session (stateless clients: the name alone). */
export function connectionOf(ctx: Pick<CallContext, 'client' | 'session'>): string {
  return `${ctx.client}\u0000${ctx.session ?? ''}`;
}

export class SearchCallPairing {
  /** Per agent, its latest search: learning keeps one per agent too, so a pair is always this one's. */
  private readonly last = new Map<string, { from: string; shown: Set<string> }>();

  searched(agent: string, ctx: Pick<CallContext, 'client' | 'session'>, shown: readonly string[]): void {
    this.last.set(agent, { from: connectionOf(ctx), shown: new Set(shown) });
  }

  /** Whether this call (or promotion) may be learned from as the answer to the agent's latest search. */
  allows(agent: string, tool: string, ctx: Pick<CallContext, 'client' | 'session'> | undefined): boolean {
    const s = this.last.get(agent);
    return s !== undefined && ctx !== undefined && s.from === connectionOf(ctx) && s.shown.has(tool);
  }
}
