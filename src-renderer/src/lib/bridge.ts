// The window's one way to the core: the ControlApi, over Electron IPC when the preload provides it,
// else over HTTP /control with the session cookie (the headless window). Events likewise.
// The core's types come from its one contract module, as types only (test/unit/rendererImports).
import type {
  ControlApi,
  ControlArgs,
  ControlBridge,
  ControlMethod,
  ControlResult,
  CoreEvent,
  Envelope,
} from '../../../src-main/core/control/contract';

/** Both transports answer the control envelope; errors are read from it, never from a message's text. */
export type Bridge = ControlBridge;

declare global {
  interface Window {
    workingSet?: Bridge;
  }
}

export class ControlError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/**
 * The session's CSRF token; /control refuses the cookie alone. It arrives once, in the fragment of the
 * login redirect (`/ui/#mws-csrf=…`), and is kept in this origin's localStorage, which pages on other
 * ports cannot read. The fragment is removed at once so it is not left in the address bar.
 */
const CSRF_KEY = 'mws-csrf';
function csrf(): string {
  const m = /^#mws-csrf=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (m) {
    localStorage.setItem(CSRF_KEY, m[1]!);
    history.replaceState(null, '', location.pathname + location.search);
  }
  return localStorage.getItem(CSRF_KEY) ?? '';
}
if (!window.workingSet) csrf();

/**
 * A page on another port can push the session cookie out of the browser's jar (cookies know no ports);
 * the CSRF token this window holds gets it back (core/http/sessionRenew.ts), and the call is tried once more.
 */
async function renewCookie(): Promise<boolean> {
  const res = await fetch('/ui/_session', { method: 'POST', credentials: 'same-origin', headers: { 'x-mws-csrf': csrf() } });
  return res.status === 204;
}

/** A refused event stream is opened again after this, doubling up to the most. */
const STREAM_RETRY_MS = 500;
const STREAM_RETRY_MAX_MS = 30_000;

const httpBridge: Bridge = {
  async invoke(method, args) {
    const send = () =>
      fetch(`/control/${method}`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', 'x-mws-csrf': csrf() },
        body: JSON.stringify(args ?? {}),
      });
    let res = await send();
    if (res.status === 401 && (await renewCookie())) res = await send();
    return (await res.json()) as Envelope;
  },
  onEvent(listener, opened) {
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let delay = STREAM_RETRY_MS;
    const open = () => {
      // EventSource cannot send headers: the token goes in the query.
      source = new EventSource(`/control/events?csrf=${encodeURIComponent(csrf())}`);
      source.onmessage = (m) => listener(JSON.parse(m.data as string) as CoreEvent);
      // The core listens before it answers, so what is read after this misses nothing; EventSource
      // opens again by itself after a lost connection, and events in the gap are gone.
      source.onopen = () => {
        delay = STREAM_RETRY_MS;
        opened?.();
      };
      // A reconnection refused (the cookie pushed out of the jar, or a restarting server answering
      // an error) closes an EventSource for good: the cookie is given back and the stream opened anew,
      // waiting longer each time it is refused.
      source.onerror = () => {
        if (stopped || source?.readyState !== EventSource.CLOSED) return;
        retry = setTimeout(() => {
          void renewCookie()
            .catch(() => false)
            .then(() => stopped || open());
        }, delay);
        delay = Math.min(delay * 2, STREAM_RETRY_MAX_MS);
      };
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  },
};

const bridge: Bridge = window.workingSet ?? httpBridge;

export async function call<M extends ControlMethod>(method: M, args: ControlArgs<M>): Promise<ControlResult<M>> {
  const answer = await bridge.invoke(method, args);
  if (!answer.ok) throw new ControlError(answer.error.code, answer.error.message, answer.error.data);
  return answer.result as ControlResult<M>;
}

export const onEvent = (listener: (e: CoreEvent) => void, opened?: () => void) => bridge.onEvent(listener, opened);
export type { ControlApi };
