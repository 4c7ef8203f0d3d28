// `mws upstream log NAME --follow`: the log as it grows. The running instance keeps the log; this
// asks it again every poll on the injected clock and prints only lines not printed before, until the
// stop signal (Ctrl-C) ends it.
import type { ControlApi, UpstreamLogLine } from '../../core/control/api.js';
import { every, type Clock } from '../../core/clock.js';
import { MwsError } from '../../core/errors.js';

/** Often enough that a restart or a crash shows within a breath; the log view is a small answer. */
export const LOG_FOLLOW_POLL_MS = 1_000;
/** Polls in a row that may fail before the follow ends: a busy instance (a restart under load) answers late once or twice, a stopped one never. */
export const LOG_FOLLOW_FAILURES = 5;
/** What each poll asks for: more lines than a second of even a chatty server prints. */
const FOLLOW_LINES = 200;

export const logLine = (l: UpstreamLogLine) => `${l.ts.slice(11, 19)}  ${l.kind === 'event' ? '—' : ' '} ${l.text}`;

/** A line's identity across polls (the log has no ids): its time, kind and text. */
const keyOf = (l: UpstreamLogLine) => `${l.ts}\u0000${l.kind}\u0000${l.text}`;

/**
 * Prints `vendor`'s log lines as they come, `print` once per line, until `signal` aborts. A poll that
 * fails is asked again on the next tick; `maxFailures` failing in a row (the instance stopped) end the
 * follow with a sentence that names the last error.
 */
export function followLog(
  api: Pick<ControlApi, 'upstreamLog'>,
  vendor: string,
  print: (line: UpstreamLogLine) => void,
  clock: Clock,
  signal: AbortSignal,
  pollMs = LOG_FOLLOW_POLL_MS,
  maxFailures = LOG_FOLLOW_FAILURES,
): Promise<void> {
  const seen = new Set<string>();
  let busy = false;
  let failures = 0;
  const poll = async () => {
    const v = await api.upstreamLog({ vendor, lines: FOLLOW_LINES });
    const fresh = v.lines.filter((l) => !seen.has(keyOf(l)));
    // Keep only what the last answer holds: lines that scrolled out of the log are never asked for again.
    seen.clear();
    for (const l of v.lines) seen.add(keyOf(l));
    for (const l of fresh) print(l);
  };
  return new Promise<void>((resolve, reject) => {
    let stop = () => {};
    const end = (err?: unknown) => {
      stop();
      signal.removeEventListener('abort', onAbort);
      if (err === undefined) resolve();
      else reject(err instanceof Error ? err : new Error(String(err)));
    };
    const onAbort = () => end();
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', onAbort);
    const tick = () => {
      if (busy || signal.aborted) return;
      busy = true;
      poll().then(
        () => {
          busy = false;
          failures = 0;
        },
        (err: unknown) => {
          busy = false;
          if (++failures >= maxFailures) end(stoppedAnswering(err));
        },
      );
    };
    // The poll is all this command does: its timer keeps the process alive until Ctrl-C.
    stop = every(clock, pollMs, tick, { holdOpen: true });
    tick();
  });
}

/** The follow's last word once the instance stopped answering: a sentence, never a stack. */
function stoppedAnswering(err: unknown): MwsError {
  if (err instanceof MwsError && err.code !== 'instance_unreachable') return err;
  const why = (err as Error)?.message ?? String(err);
  return new MwsError(
    'instance_unreachable',
    `The running instance stopped answering (${why.replace(/\.$/, '')}), so the log ends here. Start it again (mws serve) and follow the log again.`,
  );
}
