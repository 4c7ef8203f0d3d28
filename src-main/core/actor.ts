// Who is making the change under way: set by the edge that checked the person (an operator signed in
// through the team's identity provider), read where a change is recorded (the agents' history), so
// every change says who made it without each method passing a name along.
import { AsyncLocalStorage } from 'node:async_hooks';

export type Actor = { name: string; role: 'admin' | 'approver' | 'viewer' };

export const actors = new AsyncLocalStorage<Actor>();

/** The signed-in operator behind the current request, if the request came from one. */
export function currentActor(): Actor | undefined {
  return actors.getStore();
}
