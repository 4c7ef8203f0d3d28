// The core's event stream over HTTP: GET /control/events, server-sent events, one JSON event each.
// The headless window listens here; the desktop window gets the same events over IPC.
import type { CoreEvents } from '../events.js';

/** A comment line this often keeps proxies and browsers from closing an idle stream. */
export const SSE_KEEPALIVE_MS = 15_000;

/** The answer to GET /control/events (the HTTP edge mounts it there). */
export function eventsHandler(
  events: CoreEvents,
  authorized: (request: Request) => boolean | Promise<boolean>,
): (request: Request) => Promise<Response> {
  return async (request) => {
    if (!(await authorized(request)))
      return new Response("This needs the control token, a window session or an operator's sign-in.\n", { status: 401 });
    let off: () => void = () => {};
    let timer: NodeJS.Timeout | undefined;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        const enc = new TextEncoder();
        const send = (text: string) => {
          try {
            controller.enqueue(enc.encode(text));
          } catch {
            off();
          }
        };
        send(': connected\n\n');
        off = events.on((e) => send(`data: ${JSON.stringify(e)}\n\n`));
        timer = setInterval(() => send(': keepalive\n\n'), SSE_KEEPALIVE_MS);
        request.signal.addEventListener('abort', () => {
          off();
          clearInterval(timer);
          try {
            controller.close();
          } catch {
            // already closed
          }
        });
      },
      cancel() {
        off();
        clearInterval(timer);
      },
    });
    return new Response(stream, {
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' },
    });
  };
}
