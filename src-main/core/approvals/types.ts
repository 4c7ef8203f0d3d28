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
