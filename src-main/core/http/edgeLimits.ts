// What any stranger on loopback may cost the listener before a credential is looked at: open
// connections (overall and per remote address), bytes of request bodies being read, and time to send
// a request. Past a cap a client gets a 503 with a sentence, never a dead process; each cap that is
// hit says so in the log, at most once per interval. Node's own server options do the timing
// (headersTimeout, requestTimeout, keepAliveTimeout); this file adds what Node has no option for.
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '../log.js';

/** Open connections at most. A local proxy serves a few agents; 512 stays well inside a 1,024-file limit. */
export const MAX_OPEN_CONNECTIONS = 512;
/** Open connections from one remote address at most, so one address cannot take every slot. */
export const MAX_CONNECTIONS_PER_ADDRESS = 384;
/** Node drops a socket at accept past this (no answer): the backstop for bursts of refused sockets still closing. */
export const HARD_MAX_CONNECTIONS = 768;
/** Bytes of request bodies being read at once, counted by their declared length (a body is at most 4 MB): what a flood of stalled uploads can hold. */
export const BODY_BUDGET_BYTES = 32 * 1024 * 1024;
/** A client has this long to send a whole request head (Node's headersTimeout; default 60 s). */
export const HEADERS_TIMEOUT_MS = 10_000;
/** …and this long for the whole request, body included (Node's requestTimeout; default 300 s). An answer may take longer. */
export const REQUEST_TIMEOUT_MS = 30_000;
/** A kept-alive connection with no request in flight is closed after this. */
export const KEEP_ALIVE_IDLE_MS = 10_000;
/** A connection that has sent no whole request head for this long is closed (Node has no timeout for it). */
export const IDLE_SOCKET_MS = 10_000;
/** How often Node looks for requests past the two timeouts above. */
export const CONNECTIONS_CHECK_MS = 1_000;
/** Headers per request at most (Node's default is 2,000). */
export const MAX_HEADERS_COUNT = 100;
/** One log line per cap per this long, with the count of the ones not logged. */
export const CAP_LOG_INTERVAL_MS = 10_000;
/** A refused socket is closed this long after its 503 is written, so the client reads the answer rather than a reset. */
const REFUSED_LINGER_MS = 2_000;

/** One line per kind of cap per interval, so a flood cannot flood the log too. */
export class CapLog {
  private readonly seen = new Map<string, { at: number; quiet: number }>();
  constructor(
    private readonly log: Logger | undefined,
    private readonly now: () => number = Date.now,
    private readonly intervalMs = CAP_LOG_INTERVAL_MS,
  ) {}

  hit(kind: string, sentence: string): void {
    const t = this.now();
    const s = this.seen.get(kind);
    if (s && t - s.at < this.intervalMs) {
      s.quiet++;
      return;
    }
    const more = s?.quiet ? ` (${s.quiet} more since the last such line)` : '';
    this.seen.set(kind, { at: t, quiet: 0 });
    this.log?.warn(`${sentence}${more}`);
  }
}

/** The bytes of bodies being read, shared by every connection. */
export class BodyBudget {
  private held = 0;
  private spent = false;
  /** `onDrained` runs when the budget is back to nothing held after it was spent: a flood has ended. */
  constructor(
    readonly limit = BODY_BUDGET_BYTES,
    private readonly onDrained: () => void = () => {},
  ) {}
  get heldBytes(): number {
    return this.held;
  }
  /** Reserves `bytes`; answers a release function (idempotent), or undefined when the budget is spent. */
  take(bytes: number): (() => void) | undefined {
    if (bytes <= 0) return () => {};
    if (this.held + bytes > this.limit) {
      this.spent = true;
      return undefined;
    }
    this.held += bytes;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.held -= bytes;
      if (this.held === 0 && this.spent) {
        this.spent = false;
        this.onDrained();
      }
    };
  }
}

export type Refused = { status: number; message: string };

/** The answer for a request whose body cannot be read now; undefined when it may go on (its reservation is then released when the request ends). */
export function admitBody(
  req: IncomingMessage,
  res: ServerResponse,
  budget: BodyBudget,
  maxBodyBytes: number,
  caps: CapLog,
): Refused | undefined {
  // A chunked body (fetch with a stream body, Go's client with a pipe) has no length until it ends: it
  // holds a whole body's worth while it arrives, and every reader (readJson, the SDK's) stops at the
  // limit. Node's parser has already refused a transfer-encoding not ending in chunked, or one with a length.
  const chunked = req.headers['transfer-encoding'] !== undefined;
  const declared = chunked ? maxBodyBytes : Number(req.headers['content-length'] ?? 0);
  if (!Number.isSafeInteger(declared) || declared < 0)
    return { status: 400, message: 'Bad request: the content-length header is not a number of bytes.' };
  if (declared > maxBodyBytes) return { status: 413, message: `Request body too large: at most ${maxBodyBytes} bytes are read.` };
  const release = budget.take(declared);
  if (!release) {
    caps.hit(
      'bodies',
      `refused a request body: ${budget.limit} bytes of bodies are already being read (a flood of slow uploads?); clients are answered 503 until they finish.`,
    );
    return { status: 503, message: 'Busy: too many request bodies are being sent to Working Set at once. Try again in a few seconds.' };
  }
  req.once('end', release);
  req.once('close', release);
  res.once('close', release);
  return undefined;
}

/**
 * Writes a last answer and closes the socket soon after, even if the client never closes its side
 * (an HTTP server's sockets are half-open: `end` alone would leave a stalled client holding it).
 */
export function endAndClose(socket: Socket | import('node:stream').Duplex, raw: string): void {
  socket.end(raw);
  setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
}

/**
 * A request refused while its body is still coming: once the answer is written, Node would close the
 * socket at once, its unread bytes make the kernel reset the connection, and a client that is still
 * sending can lose the answer with it (9 of 10 clients that read once their body is sent; 8 of 100
 * that read as they send). Instead the socket is half-closed, and what the client still sends is read
 * and dropped, up to `maxBytes` and REFUSED_LINGER_MS, as long as a refused connection is kept.
 * What was dropped is garbage: `onClosed` lets the flood's collection (below) have it.
 */
export function lingerAfterAnswer(req: IncomingMessage, maxBytes: number, onClosed: () => void = () => {}): void {
  const socket = req.socket;
  socket.destroySoon = () => {
    socket.end();
    socket.once('close', onClosed);
    let read = 0;
    req.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > maxBytes) socket.destroy();
    });
    setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
  };
}

export function rawAnswer(status: string, sentence: string): string {
  const body = `${sentence}\n`;
  return `HTTP/1.1 ${status}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

/** `upload`: the request in flight while its body has not all arrived, and since when. */
type Conn = { address: string; busy: number; served: number; idleSince: number; upload?: { req: IncomingMessage; since: number } };

/** The listener's times (ms); tests inject short ones to see that a long answer outlives them. */
export type EdgeTimes = { headersMs: number; requestMs: number; keepAliveMs: number; idleSocketMs: number; checkMs: number };
export const EDGE_TIMES: EdgeTimes = {
  headersMs: HEADERS_TIMEOUT_MS,
  requestMs: REQUEST_TIMEOUT_MS,
  keepAliveMs: KEEP_ALIVE_IDLE_MS,
  idleSocketMs: IDLE_SOCKET_MS,
  checkMs: CONNECTIONS_CHECK_MS,
};

/**
 * Sets Node's timeouts and caps open connections. At the cap, a connection with no request in flight
 * (one that never sent a whole request first, else the kept-alive one idle longest) is closed to make room, so a flood of half-open sockets
 * cannot lock new clients out; only when every connection is busy does the newcomer get a 503.
 * Answers the set of sockets refused this way: the request handler must not answer on them.
 */
export function limitConnections(
  server: HttpServer,
  caps: CapLog,
  times: EdgeTimes = EDGE_TIMES,
  // With TLS the requests' sockets are the TLS ones, which 'secureConnection' gives.
  connectionEvent: 'connection' | 'secureConnection' = 'connection',
): WeakSet<Socket> {
  server.headersTimeout = times.headersMs;
  server.requestTimeout = times.requestMs;
  server.keepAliveTimeout = times.keepAliveMs;
  server.maxHeadersCount = MAX_HEADERS_COUNT;
  server.maxConnections = HARD_MAX_CONNECTIONS;
  const conns = new Map<Socket, Conn>();
  const perAddress = new Map<string, number>();
  const refused = new WeakSet<Socket>();

  // Sockets that never sent a whole request (half-open heads, idle from the start: what a flood is
  // made of) go first, oldest first; a kept-alive client that has been answered only when none is left,
  // the one idle longest first. Otherwise a flood closed the oldest connections, which are the clients'.
  // With none idle, the upload stalled longest goes (a body on loopback arrives in milliseconds; a
  // thousand bodies of one byte that never come would otherwise hold every slot for the request timeout).
  const evictIdle = (address?: string): boolean => {
    let victim: Socket | undefined;
    let idleSince = Infinity;
    for (const [socket, c] of conns) {
      if (c.busy !== 0 || (address !== undefined && c.address !== address)) continue;
      if (c.served === 0) {
        victim = socket;
        break;
      }
      if (c.idleSince < idleSince) [victim, idleSince] = [socket, c.idleSince];
    }
    if (!victim) {
      let since = Infinity;
      for (const [socket, c] of conns) {
        if (address !== undefined && c.address !== address) continue;
        if (c.upload && !c.upload.req.complete && c.upload.since < since) [victim, since] = [socket, c.upload.since];
      }
    }
    if (!victim) return false;
    victim.destroy();
    forget(victim);
    return true;
  };
  const forget = (socket: Socket) => {
    const c = conns.get(socket);
    if (!c) return;
    conns.delete(socket);
    const n = (perAddress.get(c.address) ?? 1) - 1;
    if (n > 0) perAddress.set(c.address, n);
    else perAddress.delete(c.address);
  };
  const refuse = (socket: Socket, why: string) => {
    refused.add(socket);
    caps.hit('connections', `refused a connection: ${why}; clients are answered 503 until some close.`);
    endAndClose(
      socket,
      rawAnswer('503 Service Unavailable', 'Busy: Working Set has too many open connections right now. Try again in a few seconds.'),
    );
  };

  server.on(connectionEvent, (socket: Socket) => {
    const address = socket.remoteAddress ?? '?';
    const fromHere = (perAddress.get(address) ?? 0) >= MAX_CONNECTIONS_PER_ADDRESS;
    if (fromHere || conns.size >= MAX_OPEN_CONNECTIONS) {
      const cap = fromHere ? `${MAX_CONNECTIONS_PER_ADDRESS} connections from ${address}` : `${MAX_OPEN_CONNECTIONS} connections`;
      if (!evictIdle(fromHere ? address : undefined)) return refuse(socket, `${cap} are open and busy`);
      caps.hit(
        'evict',
        `closed an idle connection or a stalled upload to make room: ${cap} were open (a flood of idle, half-open or stalled sockets?).`,
      );
    }
    conns.set(socket, { address, busy: 0, served: 0, idleSince: 0 });
    perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
    // A socket that never completes a request head; while a request is in flight this is off (see below).
    socket.setTimeout(times.idleSocketMs);
    socket.once('close', () => forget(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const c = conns.get(req.socket);
    if (!c) return;
    c.busy++;
    if (!req.complete) c.upload = { req, since: performance.now() };
    // Long answers (event streams, calls waiting for approval) may be quiet for minutes.
    req.socket.setTimeout(0);
    res.once('close', () => {
      c.busy--;
      c.served++;
      c.upload = undefined;
      c.idleSince = performance.now();
    });
  });
  // With a listener here Node leaves the timed-out socket to us: idle and half-open ones are closed.
  server.on('timeout', (socket: Socket) => {
    const c = conns.get(socket);
    if (c && c.busy > 0) return;
    if (!c || c.served === 0) caps.hit('idle', `closed a connection that sent no whole request within ${times.idleSocketMs / 1000} s.`);
    socket.destroy();
  });
  server.on('drop', () => caps.hit('drop', `dropped a connection at accept: ${HARD_MAX_CONNECTIONS} sockets are open.`));
  return refused;
}

/** The answer to a request that ran out of time (Node's headersTimeout or requestTimeout). */
export const TIMEOUT_ANSWER = rawAnswer(
  '408 Request Timeout',
  `Request timeout: the request must arrive whole within ${REQUEST_TIMEOUT_MS / 1000} s (its head within ${HEADERS_TIMEOUT_MS / 1000} s).`,
);
