// Calls to an upstream that speaks the 2025 protocol over stdio, sent and answered on its transport
// without the SDK client's request machinery. The wire stays what the SDK would write: its next
// request id, the same request, notifications/cancelled on a timeout or an abort. What reaches the
// caller stays what the SDK would give: the result of a well-formed answer with a `resultType`
// removed, an error answer as its ProtocolError, a timeout or an abort as its SdkError, a closed
// connection as ConnectionClosed. An answer the SDK would drop as malformed is left to it, so the
// call ends at its deadline as before.
// Why: the SDK's per-request path (a zod check of each message's kind, an era codec, a schema step
// in a microtask of its own, the closures and bookkeeping around them) was the largest part left
// of the proxy's own CPU per call (docs/research/measured.md, "The thinnest proxy beside mws",
// eighteenth stop).
// Not taken here: calls with a progress token (the SDK pairs progress with its request), other
// methods, and any upstream in the 2026-07-28 era (its envelope and input_required are the SDK's).
import type { Client, JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { ClientSdk } from './clientSdk.js';
import { isPlainObject } from '../../shared/plainObject.js';

type Waiter = {
  resolve(result: Record<string, unknown>): void;
  reject(err: unknown): void;
  timer: ReturnType<typeof setTimeout>;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
};

type Answer = { result?: unknown; error?: unknown };

export type LaneOptions = { timeoutMs: number; signal?: AbortSignal };

/**
 * The SDK client's own request numbering, shared: the lane's requests take the ids the client's
 * would have, so the upstream sees the numbers it always saw (a string id of our own would reach
 * servers that only ever took numbers) and no id is used twice. Undefined when this SDK version has
 * no such counter: then there is no lane and the SDK makes every request. (A test checks that the
 * SDK still numbers its requests from it.)
 */
export function sharedRequestIds(client: Client): (() => number) | undefined {
  const c = client as unknown as { _requestMessageId?: unknown };
  if (typeof c._requestMessageId !== 'number') return undefined;
  return () => (c as { _requestMessageId: number })._requestMessageId++;
}

/**
 * An answer as the SDK's JSON-RPC answer schemas accept one (strict: no other keys): a result object
 * whose `_meta`, if any, is an object; or an error with a safe-integer code and a message.
 */
function wellFormed(m: Answer & { jsonrpc?: unknown }): boolean {
  if (m.jsonrpc !== '2.0') return false;
  let answers = 0;
  for (const k in m) {
    if (k === 'result' || k === 'error') answers++;
    else if (k !== 'jsonrpc' && k !== 'id') return false;
  }
  if (answers !== 1) return false;
  if ('result' in m) {
    const r = m.result;
    return isPlainObject(r) && (r._meta === undefined || isPlainObject(r._meta));
  }
  const e = m.error;
  return isPlainObject(e) && Number.isSafeInteger(e.code) && typeof e.message === 'string';
}

export class DirectLane {
  private readonly waiting = new Map<number, Waiter>();
  private closed = false;

  /** Installed once the SDK client is connected, outside its handlers: it sees each message first. */
  constructor(
    private readonly transport: Transport,
    private readonly sdk: Pick<ClientSdk, 'ProtocolError' | 'SdkError' | 'SdkErrorCode'>,
    private readonly nextId: () => number,
  ) {
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const m = message as Answer & { id?: unknown; method?: unknown };
      // Read as the SDK reads an answer's id (Number("7") is 7).
      const id = m.method === undefined && (typeof m.id === 'number' || typeof m.id === 'string') ? Number(m.id) : NaN;
      if (this.waiting.has(id) && wellFormed(m)) {
        // A microtask later, as the SDK's answers reach it here (upstreamClient.ts, responsesAfterNotifications).
        queueMicrotask(() => this.answer(id, m));
        return;
      }
      deliver?.(message, extra);
    };
    const closedBefore = transport.onclose;
    transport.onclose = () => {
      this.closed = true;
      try {
        closedBefore?.();
      } finally {
        this.failAll(new sdk.SdkError(sdk.SdkErrorCode.ConnectionClosed, 'Connection closed'));
      }
    };
  }

  /** How many of the lane's requests wait for an answer (for tests). */
  get inFlight(): number {
    return this.waiting.size;
  }

  request(method: string, params: Record<string, unknown> | undefined, opts: LaneOptions): Promise<Record<string, unknown>> {
    const { signal } = opts;
    // The SDK's words for the same case, so callers and logs read alike either way.
    if (this.closed) return Promise.reject(new Error('Not connected'));
    if (signal?.aborted) return Promise.reject(this.asSdkError(signal.reason));
    const id = this.nextId();
    return new Promise((resolve, reject) => {
      const cancel = (reason: unknown) => {
        if (!this.forget(id)) return;
        this.transport
          .send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: String(reason) } })
          .catch(() => {});
        reject(this.asSdkError(reason));
      };
      const onAbort = signal ? () => cancel(signal.reason) : undefined;
      const timer = setTimeout(
        () => cancel(new this.sdk.SdkError(this.sdk.SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: opts.timeoutMs })),
        opts.timeoutMs,
      );
      this.waiting.set(id, { resolve, reject, timer, signal, onAbort });
      signal?.addEventListener('abort', onAbort!, { once: true });
      const message = { method, ...(params ? { params } : {}), jsonrpc: '2.0', id } as JSONRPCMessage;
      this.transport.send(message).catch((err: unknown) => {
        if (this.forget(id)) reject(err);
      });
    });
  }

  private answer(id: number, m: Answer): void {
    const w = this.waiting.get(id);
    if (!w || !this.forget(id)) return;
    if ('error' in m) {
      const e = m.error as { code: number; message: string; data?: unknown };
      w.reject(this.sdk.ProtocolError.fromError(e.code, e.message, e.data));
      return;
    }
    // The 2025 codec's reading: a `resultType` an upstream sends anyway is not part of the result.
    const r = m.result as Record<string, unknown>;
    if ('resultType' in r) {
      const { resultType: _dropped, ...rest } = r;
      w.resolve(rest);
    } else w.resolve(r);
  }

  /** Drops a waiting request (its timer and abort listener); false when it was no longer waiting. */
  private forget(id: number): boolean {
    const w = this.waiting.get(id);
    if (!w) return false;
    this.waiting.delete(id);
    clearTimeout(w.timer);
    if (w.onAbort) w.signal!.removeEventListener('abort', w.onAbort);
    return true;
  }

  private failAll(err: Error): void {
    for (const [id, w] of [...this.waiting]) {
      this.forget(id);
      w.reject(err);
    }
  }

  private asSdkError(reason: unknown): Error {
    return reason instanceof this.sdk.SdkError ? reason : new this.sdk.SdkError(this.sdk.SdkErrorCode.RequestTimeout, String(reason));
  }
}
