// Approval types shared with the window (no Node imports here: the renderer reads them).

export type PendingCall = {
  id: string;
  agent: string;
  tool: string;
  /** The arguments as shown to the user deciding, long strings and lists cut; kept in memory only, never written anywhere. */
  arguments: Record<string, unknown>;
  /** The full arguments' size as JSON, so a cut preview does not hide how much the call sends. */
  argumentBytes?: number;
  since: number;
  /** The definition changed since the user last allowed it. */
  withdrawn: boolean;
};

/** A tool's kind from its annotations, as the window, tray and CLI name it. */
export type ToolKind = 'read-only' | 'write' | 'destructive';

/** A waiting call as the inbox shows it: what the tool does, and how long it has waited and has left. */
export type PendingView = PendingCall & {
  description: string | null;
  kind: ToolKind;
  /** When it stops waiting and fails (ms since epoch, the core's clock). */
  expiresAt: number;
  /** The core's clock when this was read, so waited/left do not depend on the viewer's clock. */
  now: number;
};

/** A standing grant: a tool this agent may run without asking, until withdrawn or redefined. */
export type GrantView = {
  agent: string;
  tool: string;
  since: number;
  /** The operator who allowed it, when one signed in through the team's provider did. */
  by?: string;
  description: string | null;
  kind: ToolKind;
  available: boolean;
};
