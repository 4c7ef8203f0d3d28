// Requests to an upstream that speaks the 2025 protocol over stdio, sent and answered on its
// transport without the SDK client's request machinery. What the SDK does for such a request is
// done here the same way, with its own error classes: the request on the wire, the answer with a
// `resultType` removed, an error answer as its ProtocolError, a timeout or an abort as its SdkError
// with notifications/cancelled sent, a closed connection as ConnectionClosed.
// Why: the SDK's per-request path (a zod check of each message's kind, an era codec, a schema step
// in a microtask of its own, a timer) was the largest part left of the proxy's own CPU per call
// (docs/research/measured.md, "The thinnest proxy beside mws", eighteenth stop).
// Not taken here: calls with a progress token (the SDK pairs progress with its request), and any
// upstream in the 2026-07-28 era (its envelope and input_required flows are the SDK's).
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { ClientSdk } from './clientSdk.js';

type Waiter = {
  resolve(result: Record<string, unknown>): void;
  reject(err: unknown): void;
  timer: ReturnType<typeof setTimeout>;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
};

/** Ids of the lane's requests: strings, where the SDK client numbers its own, so neither takes the other's answer. */
const ID_PREFIX = 'mws-';

export type LaneOptions = { timeoutMs: number; signal?: AbortSignal };

export class DirectLane {
  private next = 0;
  private readonly waiting = new Map<string, Waiter>();

  /** Installed once the SDK client is connected, outside its handlers: it sees each message first. */
  constructor(
    private readonly transport: Transport,
    private readonly sdk: Pick<ClientSdk, 'ProtocolError' | 'SdkError' | 'SdkErrorCode'>,
  ) {
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const m = message as { id?: unknown; method?: unknown };
      if (typeof m.id === 'string' && m.method === undefined && this.waiting.has(m.id)) {
        // A microtask later, as the SDK delivers answers: notifications that came before it are handled first.
        queueMicrotask(() => this.answer(m.id as string, message));
        return;
      }
      deliver?.(message, extra);
    };
    const closed = transport.onclose;
    transport.onclose = () => {
      try {
        closed?.();
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
    if (signal?.aborted) return Promise.reject(this.asSdkError(signal.reason));
    const id = `${ID_PREFIX}${++this.next}`;
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
      if (onAbort) signal!.addEventListener('abort', onAbort, { once: true });
      const message = { jsonrpc: '2.0', id, method, ...(params ? { params } : {}) } as JSONRPCMessage;
      this.transport.send(message).catch((err: unknown) => {
        if (this.forget(id)) reject(err);
      });
    });
  }

  private answer(id: string, message: JSONRPCMessage): void {
    const w = this.waiting.get(id);
    if (!w || !this.forget(id)) return;
    const m = message as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
    if (m.error) {
      w.reject(this.sdk.ProtocolError.fromError(m.error.code, m.error.message, m.error.data));
      return;
    }
    w.resolve(withoutResultType(m.result) as Record<string, unknown>);
  }

  /** Drops a waiting request (its timer and abort listener); false when it was no longer waiting. */
  private forget(id: string): boolean {
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

/** The 2025 era's reading of a result: a `resultType` an upstream sends anyway is not part of it. */
function withoutResultType(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || !('resultType' in raw)) return raw;
  const { resultType: _dropped, ...rest } = raw as Record<string, unknown>;
  return rest;
}
