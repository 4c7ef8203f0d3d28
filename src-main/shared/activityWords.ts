// How a call's outcome reads in the activity log, the same in the window and `mws activity`.

/** `ok`, `error` (it ran and failed) or `refused` (answered without running: never reached the upstream). */
export function callOutcome(c: { ok: boolean; refused?: boolean }): 'ok' | 'error' | 'refused' {
  return c.ok ? 'ok' : c.refused ? 'refused' : 'error';
}
