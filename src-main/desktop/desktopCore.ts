// What the desktop shell sees of the Working Set it shows: the core it hosts (embeddedCore.ts) or, in
// console mode, a remote instance (remoteCore.ts). The tray, notifications and the window use only this.
import type { ControlApi } from '../core/control/api.js';
import type { CoreEvents } from '../core/control/events.js';

export type DesktopCore = {
  readonly control: ControlApi;
  readonly events: CoreEvents;
  /** The agent's display name as configured now, or its id. */
  agentName(id: string): string;
  /** Whether the upstream refused our credentials (401/403) at its last contact. */
  upstreamRefused(vendor: string): boolean;
  /** Console mode: the remote instance shown, and how the connection to it stands. */
  readonly remote?: RemoteState;
  stop(): Promise<void>;
};

export type RemoteState = {
  readonly url: string;
  /** Whether its event stream is open now. */
  connected(): boolean;
  /** What the person should know or do about the connection now (a sign-in to confirm, why it failed). */
  note(): string | undefined;
  /** Starts a sign-in (the browser opens the provider's link), as the tray's "Sign in…" asks. */
  signIn(): void;
  /** Called when either of the above changes. */
  onChange(fn: () => void): () => void;
};
