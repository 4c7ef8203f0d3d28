// The core's one event stream, which the tray, the window and notifications listen to.
import type { DemoteCause } from '../workingset/types.js';
import type { PendingCall } from '../approvals/types.js';

export type CoreEvent =
  | { type: 'setChanged'; agent: string }
  | { type: 'toolsDemoted'; agent: string; tools: string[]; cause: DemoteCause }
  | { type: 'upstreamStatus'; vendor: string; status: string }
  /** An OAuth upstream waits for the user to sign in; `signIn({vendor})` gives the link to open. */
  | { type: 'signInNeeded'; vendor: string }
  | { type: 'approvalPending'; call: PendingCall }
  | { type: 'approvalDecided'; agent: string; tool: string }
  | { type: 'settingsChanged' }
  | { type: 'paused'; proxy: boolean; demotion: boolean };

export class CoreEvents {
  private readonly listeners = new Set<(e: CoreEvent) => void>();

  on(listener: (e: CoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(e: CoreEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch {
        // one broken listener must not silence the others
      }
    }
  }
}
