// ControlApi over HTTP, the answering side (httpClient.ts calls): POST /control/<method> with the args
// as a JSON body and the per-install token as a bearer token (or the window's session cookie plus its
// CSRF header); the answer is the envelope of envelope.ts, {ok, result} or {ok: false, error: {code,
// message, data}}, with its HTTP status (400 bad arguments, 404 unknown method/agent/tool, 409
// conflicts, 500 bugs). Host and Origin are checked by the listener before this runs. Only
// `application/json` bodies are read: a page on another origin cannot send that type without a CORS
// preflight, which nothing here answers, so a form or no-cors fetch never gets in.
import { isControlMethod, type ControlApi } from '../contract.js';
import { dispatch, statusOf } from '../envelope.js';
import { bearerToken, tokenMatches } from '../../store/controlToken.js';
import { RESULT_LAST } from './httpClient.js';
import { envelopeJson } from './envelopeJson.js';
import { editBase } from '../../config/editor.js';
import { actors, type Actor } from '../../actor.js';
import { mayCall, type Role } from '../roles.js';

const json = (status: number, body: unknown, extra: Record<string, string> = {}) => {
  const answer = envelopeJson(body);
  const headers = { 'content-type': 'application/json', ...extra };
  if (typeof answer === 'string') return new Response(answer, { status, headers });
  // As bytes, Response copies them (a malloc'd block of ~5 MB for a report, which raised the C
  // allocator's threshold when freed: pagedBytes.ts); a stream of the paged chunks is written as they are.
  let length = 0;
  for (const chunk of answer) length += chunk.length;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of answer) controller.enqueue(chunk);
      controller.close();
    },
  });
  return new Response(stream, { status, headers: { ...headers, 'content-length': String(length) } });
};

function isJson(contentType: string | null): boolean {
  return contentType !== null && /^application\/json\s*(?:;|$)/i.test(contentType.trim());
}

/** An operator's token judged: who and until when (epoch ms), or the refusal's status and sentence. */
export type OperatorVerdict = { actor: Actor; until: number } | { status: number; message: string };
export type OperatorCheck = (request: Request) => Promise<OperatorVerdict | undefined>;

const ROLE_WORDS: Record<Role, string> = {
  admin: 'everything',
  approver: 'the approvals inbox and the read-only views',
  viewer: 'the read-only views',
};

/** The answer to POST /control/<method> (the HTTP edge mounts it there). */
export function controlHandler(
  api: ControlApi,
  token: () => string,
  /** The window's session: the admin's (no actor), a signed-in operator's, or not the window (undefined). */
  windowCaller?: (request: Request) => { actor?: Actor } | undefined,
  /** An operator's bearer token from the team's identity provider: who they are and their role, or why not. */
  operator?: OperatorCheck,
): (request: Request) => Promise<Response> {
  return (request) => {
    const url = new URL(request.url);
    return (async () => {
      if (request.method === 'POST' && !isJson(request.headers.get('content-type'))) {
        return json(415, {
          ok: false,
          error: { code: 'usage', message: 'The body must be sent as content-type: application/json.', data: {} },
        });
      }
      const auth = request.headers.get('authorization');
      const bearer = bearerToken(auth);
      let actor: Actor | undefined;
      const admin = tokenMatches(bearer, token());
      const fromWindow = admin ? undefined : windowCaller?.(request);
      if (fromWindow) actor = fromWindow.actor;
      else if (!admin) {
        const op = bearer && operator ? await operator(request) : undefined;
        if (op && 'actor' in op) actor = op.actor;
        else if (op)
          return json(op.status, {
            ok: false,
            error: { code: op.status === 403 ? 'forbidden' : 'unauthorized', message: op.message, data: {} },
          });
      }
      if (!actor && !admin && !fromWindow) {
        return json(401, {
          ok: false,
          error: {
            code: 'unauthorized',
            message:
              "This needs the control token (stateDir/control-token), or the settings window's session with its CSRF header; open the window with `mws ui`.",
            data: {},
          },
        });
      }
      const method = url.pathname.slice('/control/'.length);
      if (request.method !== 'POST') return json(405, { ok: false, error: { code: 'usage', message: 'Use POST.', data: {} } });
      if (!isControlMethod(method)) {
        const unknown = await dispatch(api, method, {});
        return json(statusOf(unknown), unknown);
      }
      let args: unknown;
      try {
        const text = await request.text();
        args = text ? JSON.parse(text) : {};
      } catch {
        return json(400, { ok: false, error: { code: 'usage', message: 'The body must be a JSON object of arguments.', data: {} } });
      }
      // If-Match: the config version the caller's edit was made from; a moved config refuses it (409).
      const ifMatch = request.headers
        .get('if-match')
        ?.trim()
        .replace(/^W\//, '')
        .replace(/^"(.*)"$/, '$1');
      if (actor && !mayCall(actor.role, method))
        return json(403, {
          ok: false,
          error: {
            code: 'forbidden',
            message: `Signed in as ${actor.name} with the ${actor.role} role, which may not call ${method} (${ROLE_WORDS[actor.role]}). Ask an admin if you need it.`,
            data: { role: actor.role, method },
          },
        });
      const run = () =>
        ifMatch ? editBase.run({ version: ifMatch }, () => dispatch(api, method, args ?? {})) : dispatch(api, method, args ?? {});
      // The change is recorded as this operator's (the agents' history says who).
      const answer = actor ? await actors.run(actor, run) : await run();
      return json(statusOf(answer), answer, answer.ok ? { [RESULT_LAST]: 'result-last' } : {});
    })();
  };
}
