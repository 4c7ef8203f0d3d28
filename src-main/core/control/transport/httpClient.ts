// ControlApi over HTTP, the calling side (the CLI, the desktop app on a remote core): POST
// /control/<method> with the args as JSON and a bearer token; http.ts answers. Kept apart from the
// answering side, which brings the config's schema (through the editor): a command that talks to a
// running instance loads only the contract's method list (and its argument schemas with it).
import { isUtf8 } from 'node:buffer';
import { MwsError } from '../../errors.js';
import { CONTROL_METHODS, type ControlApi, type ControlMethod } from '../contract.js';
import type { ControlErrorBody } from '../envelope.js';
import { postJson } from './post.js';

/**
 * Said of an answer written as `{"ok":true,"result":…}` and nothing after the result, so a client may
 * print the result's text without parsing it (httpControlResultJson). Another version that writes the
 * envelope otherwise leaves it out.
 */
export const RESULT_LAST = 'x-mws-envelope';

type Token = string | (() => Promise<string>);

/** One POST /control/<method>: the answer's status and bytes. */
async function post(baseUrl: string, token: Token, timeoutMs: number, method: ControlMethod, args: unknown) {
  const bearer = typeof token === 'string' ? token : await token();
  return postJson(
    `${baseUrl}/control/${method}`,
    { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
    JSON.stringify(args ?? {}),
    timeoutMs,
  );
}

function resultOf(method: ControlMethod, res: { status: number; bytes: Buffer }): unknown {
  const body = JSON.parse(res.bytes.toString('utf8')) as { ok: boolean; result?: unknown; error?: Partial<ControlErrorBody> };
  if (!body.ok)
    throw new MwsError(
      (body.error?.code ?? 'usage') as never,
      body.error?.message ?? `control ${method} failed (${res.status})`,
      body.error?.data ?? {},
    );
  return body.result;
}

/** A ControlApi that calls a running instance over HTTP. */
/** `token`: the bearer token, or a function that answers a current one for each call (an operator's, renewed when about to expire). */
export function httpControlClient(baseUrl: string, token: Token, timeoutMs = 30_000): ControlApi {
  const call = async (method: ControlMethod, args: unknown) => resultOf(method, await post(baseUrl, token, timeoutMs, method, args));
  return Object.fromEntries(CONTROL_METHODS.map((m) => [m, (args: unknown) => call(m, args)])) as unknown as ControlApi;
}

const RESULT_HEAD = Buffer.from('{"ok":true,"result":');

/**
 * A method's result as the JSON the instance sent (UTF-8 bytes), for `--json` output of answers of
 * megabytes (a report of 100 agents is ~5 MB): parsing it only to print it again was half of `mws report
 * --json`'s own CPU, and decoding it to print it encoded again a tenth. The envelope is cut off when the
 * listener says it ends with the result (RESULT_LAST); any other answer is read as by the client above.
 */
export function httpControlResultJson(baseUrl: string, token: Token, timeoutMs = 30_000) {
  return async (method: ControlMethod, args: unknown): Promise<Buffer> => {
    const res = await post(baseUrl, token, timeoutMs, method, args);
    const b = res.bytes;
    if (
      res.status === 200 &&
      res.headers[RESULT_LAST] === 'result-last' &&
      b.length > RESULT_HEAD.length &&
      b.subarray(0, RESULT_HEAD.length).equals(RESULT_HEAD) &&
      b[b.length - 1] === 0x7d && // }
      // As the text would be read: bytes that are not UTF-8 (from no instance of ours) become U+FFFD.
      isUtf8(b)
    )
      return b.subarray(RESULT_HEAD.length, b.length - 1);
    return Buffer.from(JSON.stringify(resultOf(method, res) ?? null));
  };
}
