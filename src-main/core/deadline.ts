// One way to put a deadline on a promise that takes no signal of its own: timers/promises' delay,
// cancelled through an AbortController the moment the promise settles, so no timer outlives it.
// Work that takes a signal gets AbortSignal.timeout(ms) instead (control/transport/post.ts, the SDK clients).
// Neither is moved by vitest's fake timers: code that tests drive with them keeps a plain setTimeout
// (approvals/gate.ts's answer-by time).
import { setTimeout as delay } from 'node:timers/promises';

export type DeadlineOptions = {
  /** false: the timer does not keep the process alive (a probe the process may exit during). */
  ref?: boolean;
};

/** Settles as `p` does, or rejects with `timeoutError()` once `ms` pass first. */
export async function within<T>(p: Promise<T>, ms: number, timeoutError: () => Error, opts: DeadlineOptions = {}): Promise<T> {
  const cancel = new AbortController();
  const timeout = delay(ms, undefined, { signal: cancel.signal, ref: opts.ref ?? true }).then(
    () => Promise.reject(timeoutError()),
    // Cancelled: p settled first, and this side of the race is never looked at again.
    () => new Promise<never>(() => {}),
  );
  try {
    return await Promise.race([p, timeout]);
  } finally {
    cancel.abort();
  }
}
