// Keeps a client's request alive while its call waits for the user: MCP clients time a request out
// (the SDKs after 60 s) unless progress arrives, and an approval may take longer than that. Progress
// goes out only when the client asked for it with a progress token; the edge supplies `send`.

/** How often a waiting call tells its client it is still waiting: well inside the SDKs' 60 s timeout. */
export const APPROVAL_KEEPALIVE_MS = 15_000;

/** Sends one progress notification for the request (progress must grow; total is the wait in seconds). */
export type ProgressSender = (progress: number, total: number | undefined, message: string) => void;

/** Starts sending progress every `everyMs` until the returned stop is called. */
export function keepAliveWhileWaiting(o: {
  send: ProgressSender | undefined;
  tool: string;
  waitMs: number;
  everyMs?: number;
  now: () => number;
}): () => void {
  const send = o.send;
  if (!send) return () => {};
  const started = o.now();
  const total = Math.round(o.waitMs / 1000);
  const tick = () => {
    const waited = Math.round((o.now() - started) / 1000);
    try {
      send(waited, total, `Waiting for the user to approve ${o.tool} (${Math.max(0, total - waited)} s left).`);
    } catch {
      // a client that went away is noticed by the abort signal, not here
    }
  };
  tick();
  const timer = setInterval(tick, o.everyMs ?? APPROVAL_KEEPALIVE_MS);
  timer.unref();
  return () => clearInterval(timer);
}
