// Waiting in tests: every wait has a deadline and says what it waited for when it gives up, so a
// failure is a sentence at the place that failed, never a silent whole-test timeout.

/**
 * How long a wait for real processes may take. Generous: the suite must pass on a 2-core machine whose
 * cores are both busy with something else. A passing test never waits this long; only a failing one does.
 */
export const WAIT_MS = Number(process.env.MWS_TEST_WAIT_MS ?? 20_000);

/** How often `until` looks again. */
const POLL_MS = 25;

export class WaitTimeout extends Error {
  constructor(what: string, ms: number, last?: unknown) {
    super(`Timed out after ${ms} ms waiting for ${what}${last === undefined ? '' : ` (last seen: ${describe(last)})`}.`);
    this.name = 'WaitTimeout';
  }
}

function describe(v: unknown): string {
  if (v instanceof Error) return v.message;
  try {
    const s = JSON.stringify(v);
    return s.length > 300 ? `${s.slice(0, 300)}…` : s;
  } catch {
    return String(v);
  }
}

/** Rejects with a WaitTimeout naming `what` if `p` has not settled within `ms`. */
export function withDeadline<T>(p: Promise<T>, what: string, ms = WAIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new WaitTimeout(what, ms)), ms);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Calls `probe` until it returns a value that is not undefined/false (or stops throwing) and answers it.
 * Rejects after `ms` with `what` and the last thing the probe said, so the failure explains itself.
 */
export async function until<T>(probe: () => T | Promise<T>, what: string, ms = WAIT_MS): Promise<Exclude<T, undefined | false>> {
  const end = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v as Exclude<T, undefined | false>;
      last = v;
    } catch (err) {
      last = err;
    }
    if (Date.now() >= end) throw new WaitTimeout(what, ms, last);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
