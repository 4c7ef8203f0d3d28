// The one answer shape of the ControlApi on every transport, and how a call is checked and run:
// `{ok: true, result}` or `{ok: false, error: {code, message, data}}`. HTTP sends the envelope with the
// status `statusOf` gives; IPC returns it as the invoke's value. Clients read errors from it.
// `dispatch` is the one door by name (HTTP, IPC); `controlClient` the one in process (tray, headless
// CLI, the desktop shell): both check the arguments against contract.ts before a method runs.
import type { z } from 'zod';
import { MwsError, errorMessage, type ErrorCode } from '../errors.js';
import {
  CONTROL_METHODS,
  argSchemaOf,
  isControlMethod,
  type ControlApi,
  type ControlErrorBody,
  type ControlHandlers,
  type ControlMethod,
  type Envelope,
  type Failure,
} from './contract.js';
import { errorPath, isDiskFull, saveFailed } from '../store/writeFailure.js';

export type { ControlErrorBody, Envelope, Failure } from './contract.js';

/** 400 for arguments and values a person can fix, 404 for what does not exist, 409 for a state that forbids the call, 500 for bugs. */
const STATUS: Record<ControlErrorBody['code'], number> = {
  usage: 400,
  arguments_invalid: 400,
  config_invalid: 400,
  agent_not_found: 404,
  tool_not_found: 404,
  method_not_found: 404,
  not_found: 404,
  conflict: 409,
  upstream_exists: 409,
  demo_mode: 409,
  state_locked: 409,
  upstream_unavailable: 502,
  upstream_timeout: 504,
  upstream_starting: 503,
  unavailable: 503,
  state_key: 500,
  upstream_needs_value: 409,
  secrets_locked: 409,
  upstream_needs_sign_in: 409,
  sign_in_failed: 401,
  instance_unreachable: 502,
  config_unreadable: 500,
  listen_refused: 500,
  state_damaged: 500,
  state_unusable: 500,
  // 507 Insufficient Storage: the request was fine, the disk is not.
  disk_full: 507,
  state_unwritable: 500,
  internal: 500,
};

export function statusOf(envelope: Envelope): number {
  return envelope.ok ? 200 : (STATUS[envelope.error.code] ?? 500);
}

export function failure(code: ControlErrorBody['code'], message: string, data: Record<string, unknown> = {}): Failure {
  return { ok: false, error: { code, message, data } };
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  record: 'an object',
};

/** `{agent: text, limit?: a whole number}`: what a method takes, for the sentence that refuses a call. */
export function signature(schema: z.ZodType): string {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  const parts = Object.entries(shape).map(([k, s]) => {
    const optional = s.safeParse(undefined).success;
    const def = (optional ? (s as unknown as { unwrap(): z.ZodType }).unwrap() : s) as unknown as {
      def: { type: string; format?: string; checks?: Array<{ _zod: { def: { format?: string } } }> };
    };
    const int = def.def.checks?.some((c) => c._zod.def.format === 'safeint');
    return `${k}${optional ? '?' : ''}: ${int ? 'a whole number' : (TYPE_WORDS[def.def.type] ?? def.def.type)}`;
  });
  return parts.length ? `{${parts.join(', ')}}` : 'no arguments ({})';
}

const pathText = (path: ReadonlyArray<PropertyKey>) =>
  path.reduce<string>((s, k) => (typeof k === 'number' ? `${s}[${k}]` : s ? `${s}.${String(k)}` : String(k)), '');

/** The first issue as {path, reason, got}; a union reports the branch that came closest. */
function reasonOf(issue: z.core.$ZodIssue, method: string, base: PropertyKey[] = []): { path: string; reason: string; got?: unknown } {
  const path = [...base, ...issue.path];
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case 'invalid_type':
      if (input === undefined) return { path: pathText(path), reason: 'is required' };
      return { path: pathText(path), reason: `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}`, got: input };
    case 'unrecognized_keys':
      return { path: pathText([...path, issue.keys[0]!]), reason: `is not an argument ${path.length ? 'here' : `of ${method}`}` };
    case 'too_small':
      return {
        path: pathText(path),
        reason: issue.origin === 'number' ? `must be ${String(issue.minimum)} or more` : 'must not be empty',
        got: input,
      };
    case 'too_big':
      // Text too long is not echoed: it may be a secret value (setUpstreamValue), and its start says nothing.
      if (issue.origin === 'string') return { path: pathText(path), reason: `must be at most ${String(issue.maximum)} characters` };
      if (issue.origin === 'array') return { path: pathText(path), reason: `must have at most ${String(issue.maximum)} items` };
      // A whole number's own bound (2^53 - 1) is not a limit a person chose: say what the value must be.
      return {
        path: pathText(path),
        reason: Number(issue.maximum) >= Number.MAX_SAFE_INTEGER ? 'must be a whole number' : `must be ${String(issue.maximum)} or less`,
        got: input,
      };
    case 'invalid_value':
      return { path: pathText(path), reason: `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`, got: input };
    case 'invalid_union': {
      const closest = [...issue.errors].sort((a, b) => a.length - b.length);
      if (closest[0]?.[0] && (closest.length < 2 || closest[0].length < closest[1]!.length)) return reasonOf(closest[0][0], method, path);
      return { path: pathText(path), reason: issue.message, got: input };
    }
    default:
      return { path: pathText(path), reason: issue.message, got: input };
  }
}

/** Checks a call's arguments against its method's schema: the parsed arguments, or the 400 envelope. */
export function checkArgs(method: ControlMethod, args: unknown): { ok: true; args: unknown } | Failure {
  const schema = argSchemaOf(method);
  const r = schema.safeParse(args, { reportInput: true });
  if (r.success) return { ok: true, args: r.data };
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return failure(
      'usage',
      `${method} takes its arguments as a JSON object: ${signature(schema)} (got ${JSON.stringify(args)?.slice(0, 80)}).`,
      { method },
    );
  }
  const { path, reason, got } = reasonOf(r.error.issues[0]!, method);
  const gotText = got === undefined ? '' : ` (got ${JSON.stringify(got)?.slice(0, 80)})`;
  return failure('usage', `${method}: "${path}" ${reason}${gotText}. ${method} takes ${signature(schema)}.`, {
    method,
    path,
    reason,
    ...(got === undefined ? {} : { got: JSON.stringify(got)?.slice(0, 80) }),
  });
}

/** The run functions behind a client made by controlClient; a copy of it (`{...api}`) is a plain ControlApi. */
const HANDLERS = Symbol('control handlers');
const handlersOf = (api: Partial<ControlApi>): Partial<ControlHandlers> | undefined =>
  (api as { [HANDLERS]?: Partial<ControlHandlers> })[HANDLERS];

/**
 * The ControlApi in process: each method checks its arguments as dispatch does (a refusal throws the
 * same `usage` MwsError a remote client gets), then runs; what the method throws passes through as it is.
 */
export function controlClient(handlers: ControlHandlers): ControlApi;
/** A few methods in process (the CLI's secrets commands with no instance running), checked the same way. */
export function controlClient<K extends ControlMethod>(handlers: Pick<ControlHandlers, K>): Pick<ControlApi, K>;
export function controlClient(handlers: Partial<ControlHandlers>): Partial<ControlApi> {
  const method = (m: ControlMethod) => async (args: unknown) => {
    const checked = checkArgs(m, args);
    if (!checked.ok) throw new MwsError(checked.error.code as ErrorCode, checked.error.message, checked.error.data);
    return (handlers[m] as (a: unknown) => Promise<unknown>)(checked.args);
  };
  const api = Object.fromEntries(CONTROL_METHODS.filter((m) => Object.hasOwn(handlers, m)).map((m) => [m, method(m)]));
  Object.defineProperty(api, HANDLERS, { value: handlers, enumerable: false });
  return api;
}

/**
 * Runs one call by name (HTTP /control, IPC): the method must exist, its arguments fit its schema; a
 * thrown MwsError becomes its envelope, anything else a 500. `api` is the app's (controlClient's, whose
 * run functions get the parsed arguments) or any ControlApi (a wrapper), which gets them as sent.
 */
export async function dispatch(api: ControlApi, method: unknown, args: unknown): Promise<Envelope> {
  if (typeof method !== 'string' || !isControlMethod(method)) {
    return failure(
      'method_not_found',
      `No control method ${JSON.stringify(typeof method === 'string' ? method.slice(0, 64) : (method ?? null))}. Known: ${CONTROL_METHODS.join(', ')}.`,
      { method: typeof method === 'string' ? method.slice(0, 64) : null },
    );
  }
  const checked = checkArgs(method, args);
  if (!checked.ok) return checked;
  const run = handlersOf(api)?.[method] as ((a: unknown) => Promise<unknown>) | undefined;
  try {
    const result = run ? await run(checked.args) : await (api[method] as (a: unknown) => Promise<unknown>)(args);
    return { ok: true, result };
  } catch (err) {
    if (err instanceof MwsError) return failure(err.code, err.message, err.data);
    // A full disk is the machine's state, not a bug (a write that no caller turned into disk_full).
    if (isDiskFull(err)) {
      const e = saveFailed(err, `the change ${method} made`, errorPath(err) ?? 'the state folder');
      return failure(e.code, e.message, { method, ...e.data });
    }
    return failure('internal', `${method} failed: ${errorMessage(err)}. This is a bug in mws; the log has the details.`, { method });
  }
}
