// A remote instance's event stream (GET /control/events, sse.ts) as this process's own CoreEvents, for
// the desktop app's console: read with the `eventsource` package, which parses the stream, and
// reconnected here, after 1 s, 2 s, 4 s… (at most 15 s), with a fresh token each time, whatever ended
// the stream (the instance restarting, the network, a token that expired). Retries run on the clock.
import { EventSource } from 'eventsource';
import { after, type Clock } from '../../clock.js';
import { CoreEvents, type CoreEvent } from '../events.js';

export const RECONNECT_FIRST_MS = 1_000;
export const RECONNECT_MAX_MS = 15_000;

export type RemoteEvents = {
  readonly events: CoreEvents;
  /** Whether the stream is open now. */
  connected(): boolean;
  /** Called when the stream opens or drops. */
  onConnection(fn: (connected: boolean) => void): () => void;
  close(): void;
};

export function followRemoteEvents(baseUrl: string, token: () => Promise<string>, clock: Clock): RemoteEvents {
  const events = new CoreEvents();
  const watchers = new Set<(connected: boolean) => void>();
  let source: EventSource | undefined;
  let open = false;
  let closed = false;
  let failures = 0;
  let retry: (() => void) | undefined;

  const setOpen = (now: boolean) => {
    if (open === now) return;
    open = now;
    for (const w of watchers) w(now);
  };
  const schedule = () => {
    if (closed || retry) return;
    const ms = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** Math.min(failures, 4));
    failures++;
    retry = after(clock, ms, () => {
      retry = undefined;
      void connect();
    });
  };
  const connect = async () => {
    if (closed) return;
    let bearer: string;
    try {
      bearer = await token();
    } catch {
      schedule();
      return;
    }
    if (closed) return;
    const es = new EventSource(`${baseUrl}/control/events`, {
      fetch: (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set('authorization', `Bearer ${bearer}`);
        return fetch(input, { ...init, headers });
      },
    });
    source = es;
    es.onopen = () => {
      failures = 0;
      setOpen(true);
    };
    es.onmessage = (m) => {
      let e: CoreEvent;
      try {
        e = JSON.parse(m.data) as CoreEvent;
      } catch {
        return;
      }
      if (e && typeof e === 'object' && typeof e.type === 'string') events.emit(e);
    };
    // Whatever ended it, this reconnects itself (the package's own retry would keep an expired token).
    es.onerror = () => {
      es.close();
      if (source === es) source = undefined;
      setOpen(false);
      schedule();
    };
  };
  void connect();

  return {
    events,
    connected: () => open,
    onConnection(fn) {
      watchers.add(fn);
      return () => watchers.delete(fn);
    },
    close() {
      closed = true;
      retry?.();
      source?.close();
      setOpen(false);
    },
  };
}
