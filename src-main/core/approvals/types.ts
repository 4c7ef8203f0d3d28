// Approval types shared with the window (no Node imports here: the renderer reads them).

export type PendingCall = {
  id: string;
  agent: string;
  tool: string;
  /** The arguments, shown to the user deciding; kept in memory only, never written anywhere. */
  arguments: Record<string, unknown>;
  since: number;
  /** The definition changed since the user last allowed it. */
  withdrawn: boolean;
};
