// The socket side of the listener: answers for requests Node's parser refuses, and — with TLS — a
// plain socket in front that tells plain HTTP sent to the HTTPS port what to use instead.
import { readFileSync } from 'node:fs';
import type { Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { MwsError } from '../errors.js';
import { endAndClose, rawAnswer, TIMEOUT_ANSWER, type CapLog } from './edgeLimits.js';

/** The first byte of a TLS connection is a handshake record (22); anything else is plain HTTP or noise. */
const TLS_HANDSHAKE = 0x16;

/** The certificate and key, or a sentence naming the file that could not be read. */
export function tlsFiles(tls: { cert: string; key: string }): { cert: Buffer; key: Buffer } {
  const read = (what: 'cert' | 'key') => {
    try {
      return readFileSync(tls[what]);
    } catch (err) {
      throw new MwsError(
        'listen_refused',
        `Cannot serve HTTPS: "listen.tls.${what}" (${tls[what]}) cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}). Give the path of a PEM file this user can read.`,
        { path: tls[what] },
      );
    }
  };
  return { cert: read('cert'), key: read('key') };
}

export function shownName(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * A request Node's parser refuses (bad framing, oversized headers) never reaches the request handler;
 * it still gets a status and a sentence, as every other answer does.
 */
export function answerClientErrors(server: HttpServer, caps: CapLog, refusedSockets: WeakSet<object>): void {
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
    // A response already under way on this socket must not get raw bytes in its middle (as Node's own handler).
    const inFlight = (socket as unknown as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent || refusedSockets.has(socket)) return void socket.destroy();
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      caps.hit('timeout', 'closed a request that did not arrive whole in time (a slow or stalled client?).');
      return endAndClose(socket, TIMEOUT_ANSWER);
    }
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    // An answer to HEAD carries no body, or the client reads it as the start of the next response.
    const head = err.rawPacket?.toString('latin1', 0, 5) === 'HEAD ';
    const body = head
      ? ''
      : tooLarge
        ? 'Request headers too large (over 16 KB). A browser may hold too many cookies for this host: clear them, or open the window under another loopback name (localhost, 127.0.0.1 or [::1]).\n'
        : 'Bad request: the HTTP request is malformed.\n';
    endAndClose(
      socket,
      `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}

/**
 * A plain socket in front of the HTTPS server: a first byte that starts a TLS handshake goes on to it;
 * anything else (plain HTTP sent to the HTTPS port) is answered in plain HTTP, never left to hang.
 */
export function tlsFront(
  server: HttpServer,
  o: { host: string; port: () => number; idleSocketMs: number; caps: CapLog },
): { front: NetServer; destroyWaiting(): void } {
  const waiting = new Set<Socket>();
  const front = createNetServer((socket) => {
    waiting.add(socket);
    socket.on('error', () => socket.destroy());
    socket.setTimeout(o.idleSocketMs, () => socket.destroy());
    socket.once('close', () => waiting.delete(socket));
    socket.once('data', (first: Buffer) => {
      waiting.delete(socket);
      socket.setTimeout(0);
      socket.pause();
      socket.unshift(first);
      if (first[0] === TLS_HANDSHAKE) return void server.emit('connection', socket);
      o.caps.hit('plain-http', 'answered a plain HTTP request sent to the HTTPS port.');
      endAndClose(
        socket,
        rawAnswer(
          '400 Bad Request',
          `This port speaks HTTPS only: use https://${shownName(o.host)}:${o.port()}/ (plain HTTP is not served here).`,
        ),
      );
    });
  });
  return {
    front,
    destroyWaiting: () => {
      for (const s of waiting) s.destroy();
    },
  };
}
