// ControlApi over HTTP: POST /control/<method> with the args as a JSON body and the per-install token
// as a bearer token (or the window's session cookie plus its CSRF header); the answer is {ok, result}
// or {ok: false, error: {code, message}}. Host and Origin are checked by the listener before this
// runs. Only `application/json` bodies are read: a page on another origin cannot send that type
// without a CORS preflight, which nothing here answers, so a form or no-cors fetch never gets in.
import { MwsError } from '../errors.js';
import type { Route } from '../proxy/listener.js';
import { isControlMethod, CONTROL_METHODS, type ControlApi, type ControlMethod } from './api.js';
import { tokenMatches } from './token.js';
import { postJson } from './post.js';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function isJson(contentType: string | null): boolean {
  return contentType !== null && /^application\/json\s*(?:;|$)/i.test(contentType.trim());
}

export function controlRoute(api: ControlApi, token: () => string, extraAuth?: (request: Request) => boolean): Route {
  return (request, url) => {
    if (!url.pathname.startsWith('/control/')) return undefined;
    return (async () => {
      if (request.method === 'POST' && !isJson(request.headers.get('content-type'))) {
        return json(415, { ok: false, error: { code: 'usage', message: 'The body must be sent as content-type: application/json.' } });
      }
      const auth = request.headers.get('authorization');
      const bearer = auth?.startsWith('Bearer ') ? auth.slice(7) : undefined;
      if (!tokenMatches(bearer, token()) && !extraAuth?.(request)) {
        return json(401, { ok: false, error: { code: 'unauthorized', message: 'This needs the control token (stateDir/control-token), or the settings window\'s session with its CSRF header; open the window with `mws ui`.' } });
      }
      const method = url.pathname.slice('/control/'.length);
      if (request.method !== 'POST') return json(405, { ok: false, error: { code: 'usage', message: 'Use POST.' } });
      if (!isControlMethod(method)) return json(404, { ok: false, error: { code: 'usage', message: `No control method ${JSON.stringify(method.slice(0, 64))}. Known: ${CONTROL_METHODS.join(', ')}.` } });
      let args: unknown;
      try {
        const text = await request.text();
        args = text ? JSON.parse(text) : {};
      } catch {
        return json(400, { ok: false, error: { code: 'usage', message: 'The body must be a JSON object of arguments.' } });
      }
      try {
        const result = await (api[method] as (a: unknown) => Promise<unknown>)(args ?? {});
        return json(200, { ok: true, result });
      } catch (err) {
        if (err instanceof MwsError) return json(400, { ok: false, error: { code: err.code, message: err.message, data: err.data } });
        return json(500, { ok: false, error: { code: 'internal', message: (err as Error).message } });
      }
    })();
  };
}

/** A ControlApi that calls a running instance over HTTP. */
export function httpControlClient(baseUrl: string, token: string, timeoutMs = 30_000): ControlApi {
  const call = async (method: ControlMethod, args: unknown) => {
    const res = await postJson(`${baseUrl}/control/${method}`, { 'content-type': 'application/json', authorization: `Bearer ${token}` }, JSON.stringify(args ?? {}), timeoutMs);
    const body = JSON.parse(res.text) as { ok: boolean; result?: unknown; error?: { code: string; message: string; data?: Record<string, unknown> } };
    if (!body.ok) throw new MwsError((body.error?.code ?? 'usage') as never, body.error?.message ?? `control ${method} failed (${res.status})`, body.error?.data ?? {});
    return body.result;
  };
  return Object.fromEntries(CONTROL_METHODS.map((m) => [m, (args: unknown) => call(m, args)])) as unknown as ControlApi;
}
