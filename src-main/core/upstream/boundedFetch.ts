// The `fetch` an HTTP upstream's SDK transport and OAuth helpers read every answer through: each body is
// counted as it streams and the read stops (the socket cancelled) past a size bound, a JSON nesting
// depth or a deadline, with a sentence for the upstream's log. A hostile server or sign-in server
// could otherwise make the proxy hold whatever it sends (huge metadata, deep nesting, one endless
// SSE event). The bounds and what they were measured against: docs/rules/security.md.

const MiB = 1024 * 1024;
/** The largest document from a sign-in server (metadata, registration, token answer); real ones are a few KiB. */
export const SIGN_IN_MAX_BYTES = 1 * MiB;
/** How long one sign-in request may take, its body included. */
export const SIGN_IN_DEADLINE_MS = 30_000;
/** The deepest JSON nesting read from a server; MCP messages and metadata nest a dozen levels at most. */
export const MAX_JSON_DEPTH = 512;
/** How long one SSE event may take from its first byte to its blank line (a keep-alive comment is one event). */
export const SSE_EVENT_DEADLINE_MS = 5 * 60_000;

export type BoundedFetchOptions = {
  /** The MCP server's URL: answers from it are bounded by `maxResultBytes`, any other by the sign-in bound. */
  serverUrl: string;
  /** The largest answer (and the largest SSE event, hence line) from the server itself. */
  maxResultBytes: number;
  /** Told the sentence when a read is stopped. */
  onBreach: (sentence: string) => void;
  now?: () => number;
};

/** A read stopped at a bound; its message is the sentence the upstream's log shows. */
export class BodyBoundError extends Error {
  override readonly name = 'BodyBoundError';
}

export type Bounds = { kind: 'document' | 'sse'; maxBytes: number; what: string; setting: string };

const mib = (n: number) => (n >= MiB ? `${Math.round((n / MiB) * 10) / 10} MiB` : n >= 1024 ? `${Math.round(n / 1024)} KiB` : `${n} bytes`);

/** A sign-in request: anything not to the server's own origin, and the server's well-known documents. */
export function isSignInRequest(url: URL, server: URL): boolean {
  return url.origin !== server.origin || url.pathname.startsWith('/.well-known/');
}

export function boundedFetch(inner: typeof fetch, opts: BoundedFetchOptions): typeof fetch {
  const server = new URL(opts.serverUrl);
  const now = opts.now ?? Date.now;
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const signIn = isSignInRequest(url, server);
    const where = `${url.origin}${url.pathname}`;
    let ctrl: AbortController | undefined;
    let timer: NodeJS.Timeout | undefined;
    // Whether the deadline would stop someone waiting: before the headers, or while the body is being read.
    let waiting = true;
    if (signIn) {
      // The SDK gives sign-in requests no signal of their own: a server that stalls must not hold one forever.
      const c = (ctrl = new AbortController());
      const outer = init?.signal;
      if (outer?.aborted) c.abort(outer.reason);
      else outer?.addEventListener('abort', () => c.abort(outer.reason), { once: true });
      timer = setTimeout(() => {
        const sentence = `The sign-in server at ${where} did not answer within ${SIGN_IN_DEADLINE_MS / 1000} s; Working Set stopped waiting. Check that the server is up, then sign in again.`;
        if (waiting) opts.onBreach(sentence);
        c.abort(new BodyBoundError(sentence));
      }, SIGN_IN_DEADLINE_MS);
      timer.unref?.();
    }
    const done = () => clearTimeout(timer);
    let res: Response;
    try {
      res = await inner(input, ctrl ? { ...init, signal: ctrl.signal } : init);
    } catch (err) {
      done();
      throw ctrl?.signal.reason instanceof BodyBoundError ? ctrl.signal.reason : err;
    }
    waiting = false;
    const type = (res.headers.get('content-type') ?? '').toLowerCase();
    const bounds: Bounds = signIn
      ? { kind: 'document', maxBytes: SIGN_IN_MAX_BYTES, what: `The sign-in server at ${where}`, setting: '' }
      : {
          kind: type.startsWith('text/event-stream') ? 'sse' : 'document',
          maxBytes: opts.maxResultBytes,
          what: `The server at ${where}`,
          setting: ` Raise "maxResultBytes" in the config if answers this large are expected.`,
        };
    if (!res.body || [101, 204, 205, 304].includes(res.status)) {
      done();
      return res;
    }
    const scan = bodyScanner(bounds, now);
    const reader = res.body.getReader();
    // Pulled only as the consumer reads (high-water mark 0), so nothing is read ahead of it.
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(c) {
          waiting = true;
          let next: ReadableStreamReadResult<Uint8Array>;
          try {
            next = await reader.read();
          } catch (err) {
            done();
            throw ctrl?.signal.reason instanceof BodyBoundError ? ctrl.signal.reason : err;
          } finally {
            waiting = false;
          }
          if (next.done) {
            done();
            c.close();
            return;
          }
          const broken = scan(next.value);
          if (broken) {
            done();
            opts.onBreach(broken);
            c.error(new BodyBoundError(broken));
            void reader.cancel(broken).catch(() => {});
            return;
          }
          c.enqueue(next.value);
        },
        cancel(reason) {
          done();
          return reader.cancel(reason);
        },
      },
      { highWaterMark: 0 },
    );
    return piecewiseResponse(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/** What TextDecoder decodes at once: its working block (four times this) stays well under glibc's first mmap threshold. */
const DECODE_SLICE_BYTES = 16 * 1024;

/**
 * A Response that reads its text piece by piece as it streams. fetch's own `text()` and `json()` first
 * join the whole body with Buffer.concat: for a tools/list of megabytes a malloc'd block that size, which
 * raised the C allocator's mmap threshold when freed (pagedBytes.ts). The SDK reads JSON answers with
 * `json()`. The class is made at the first answer: naming the global Response loads undici (whose start
 * compiles its WebAssembly HTTP parser), which a CLI command that never fetches must not pay.
 */
function piecewiseResponse(body: ReadableStream<Uint8Array>, init: ResponseInit): Response {
  piecewise ??= class PiecewiseResponse extends Response {
    override async text(): Promise<string> {
      if (this.bodyUsed) throw new TypeError('Body is unusable: Body has already been read');
      if (!this.body) return '';
      const reader = this.body.getReader();
      const decoder = new TextDecoder();
      let text = '';
      for (;;) {
        const next = await reader.read();
        if (next.done) return text + decoder.decode();
        // In slices: the decoder asks malloc for four times its input, and a chunk is up to 64 KiB.
        for (let at = 0; at < next.value.length; at += DECODE_SLICE_BYTES)
          text += decoder.decode(next.value.subarray(at, at + DECODE_SLICE_BYTES), { stream: true });
      }
    }

    override async json(): Promise<unknown> {
      return JSON.parse(await this.text()) as unknown;
    }
  };
  return new piecewise(body, init);
}
let piecewise: typeof Response | undefined;

/**
 * Counts a body chunk by chunk: returns the sentence of the first bound it breaks. Nesting is counted
 * outside JSON strings (which never hold a raw line break, so a line break ends one); for SSE the
 * size, depth and deadline are per event, and a line is part of its event, so the event's bound is the
 * line's too.
 */
export function bodyScanner(b: Bounds, now: () => number): (chunk: Uint8Array) => string | undefined {
  let bytes = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;
  // SSE: whether the current line has any byte yet, and whether the last byte was a CR (CRLF is one break).
  let lineHasBytes = false;
  let lastCR = false;
  let eventStartedAt: number | undefined;
  const sse = b.kind === 'sse';
  const tooBig = () =>
    sse
      ? `${b.what} sent an SSE event (or line) of more than ${mib(b.maxBytes)}; Working Set stopped reading the stream.${b.setting}`
      : `${b.what} sent more than ${mib(b.maxBytes)}; Working Set stopped reading the answer.${b.setting}`;
  const tooDeep = () =>
    `${b.what} sent JSON nested deeper than ${MAX_JSON_DEPTH} levels; Working Set stopped reading it. No MCP message or sign-in document nests like that.`;
  return (chunk) => {
    if (sse && eventStartedAt === undefined && chunk.length > 0) eventStartedAt = now();
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      bytes++;
      if (c === 0x0a || c === 0x0d) {
        inString = false;
        escaped = false;
        if (sse) {
          const crlf = c === 0x0a && lastCR;
          lastCR = c === 0x0d;
          if (crlf) continue;
          if (!lineHasBytes) {
            // A blank line ends the event: the next byte starts a new one.
            bytes = 0;
            depth = 0;
            eventStartedAt = i + 1 < chunk.length ? now() : undefined;
          }
          lineHasBytes = false;
        }
        continue;
      }
      lastCR = false;
      lineHasBytes = true;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) inString = false;
      } else if (c === 0x22) inString = true;
      else if (c === 0x5b || c === 0x7b) {
        if (++depth > MAX_JSON_DEPTH) return tooDeep();
      } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
      if (bytes > b.maxBytes) return tooBig();
    }
    if (bytes > b.maxBytes) return tooBig();
    if (sse && eventStartedAt !== undefined && now() - eventStartedAt > SSE_EVENT_DEADLINE_MS)
      return `${b.what} kept one SSE event open for more than ${SSE_EVENT_DEADLINE_MS / 1000} s; Working Set stopped reading the stream.`;
    return undefined;
  };
}
