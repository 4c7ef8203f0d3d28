// The stdio transport to an upstream child: one process, newline-delimited JSON-RPC, stderr kept.
// Written here instead of the SDK's StdioClientTransport because that one closes the whole
// connection (and every call in flight on it) when one message passes its 10 MiB buffer; this one
// answers only the request whose result was too large, with a sentence, and keeps the child.
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { within } from '../deadline.js';

export type StdioParams = {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string | undefined;
  maxMessageBytes: number;
};

/** JSON-RPC error code for a result this proxy would not forward (implementation-defined range). */
export const RESULT_TOO_LARGE_CODE = -32001;
/** Bytes kept from each end of an oversize line, to find its request id. */
const KEEP_BYTES = 64 * 1024;

export function tooLargeMessage(limit: number): string {
  return (
    `The upstream's answer was larger than the ${formatBytes(limit)} limit, so Working Set did not forward it. ` +
    'Ask for less (a smaller page, range or file), or raise "maxResultBytes" in the config.'
  );
}

export function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round((n / (1024 * 1024)) * 10) / 10} MB` : `${n} bytes`;
}

export class StdioUpstreamTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  /** Piped before start, so nothing the child prints early is lost. */
  readonly stderr = new PassThrough();
  private child: ChildProcess | undefined;
  private chunks: Buffer[] = [];
  private size = 0;
  /** While an oversize line is being skipped: its first and last bytes. */
  private skipping: { head: Buffer; tail: Buffer } | undefined;
  /** Our requests awaiting an answer, to name the one an oversize answer belonged to. */
  private readonly pending = new Set<string | number>();

  constructor(private readonly params: StdioParams) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    if (this.child) throw new Error('The stdio transport is already started.');
    // Loaded on start, not with this module: the SDK's stdio module brings the client's protocol code
    // with it, which `mws serve` need not evaluate before it listens (see clientSdk.ts).
    const { getDefaultEnvironment } = await import('@modelcontextprotocol/client/stdio');
    // Closed while the module loaded: no process is started that no one would stop.
    if (this.closeAsked) throw new Error('The stdio transport was closed before it started.');
    return new Promise((resolve, reject) => {
      const child = spawn(this.params.command, this.params.args, {
        env: { ...getDefaultEnvironment(), ...this.params.env },
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        windowsHide: true,
        ...(this.params.cwd ? { cwd: this.params.cwd } : {}),
      });
      this.child = child;
      child.on('error', (err) => {
        reject(err);
        this.onerror?.(err);
      });
      child.on('spawn', () => resolve());
      child.on('close', () => {
        this.child = undefined;
        this.finish();
      });
      child.stdin?.on('error', (err) => this.onerror?.(err));
      child.stdout?.on('data', (chunk: Buffer) => this.read(chunk));
      child.stderr?.pipe(this.stderr);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const m = message as { id?: string | number; method?: string };
    if (m.method !== undefined && m.id !== undefined) this.pending.add(m.id);
    // A request given up on is answered no more: its id would stay open, and hide which one an oversize answer was for.
    else if (m.method === 'notifications/cancelled') {
      const id = (message as { params?: { requestId?: string | number } }).params?.requestId;
      if (id !== undefined) this.pending.delete(id);
    }
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin) return reject(new Error('The upstream process is not running.'));
      const text = JSON.stringify(message) + '\n';
      if (stdin.write(text)) resolve();
      else stdin.once('drain', resolve);
    });
  }

  private closeAsked = false;

  async close(): Promise<void> {
    this.closeAsked = true;
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    // Past the wait the child is still running: the caller looks at its exit code and escalates.
    const wait = (ms: number) => within(closed, ms, () => new Error('still running'), { ref: false }).catch(() => {});
    try {
      child.stdin?.end();
    } catch {
      /* already gone */
    }
    await wait(2000);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await wait(2000);
    }
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    this.finish();
  }

  private finished = false;
  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.onclose?.();
  }

  private read(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl === -1 ? chunk.length : nl;
      this.append(chunk.subarray(start, end));
      if (nl === -1) return;
      this.endLine();
      start = nl + 1;
    }
  }

  private append(part: Buffer): void {
    if (part.length === 0) return;
    if (this.skipping) {
      this.skipping.tail = lastBytes([this.skipping.tail, part], KEEP_BYTES);
      return;
    }
    if (this.size + part.length > this.params.maxMessageBytes) {
      // Only the ends are kept, copied from the pieces: never the whole message joined (pagedBytes.ts).
      const all = [...this.chunks, part];
      this.chunks = [];
      this.size = 0;
      this.skipping = { head: firstBytes(all, KEEP_BYTES), tail: lastBytes(all, KEEP_BYTES) };
      return;
    }
    this.chunks.push(part);
    this.size += part.length;
  }

  private endLine(): void {
    if (this.skipping) {
      const { head, tail } = this.skipping;
      this.skipping = undefined;
      this.answerOversize(head.toString('utf8'), tail.toString('utf8'));
      return;
    }
    const line = joinText(this.chunks).replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    if (!line.trim()) return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return; // a stray non-JSON line on stdout: ignored like the SDK does
    }
    if (typeof message !== 'object' || message === null || (message as { jsonrpc?: unknown }).jsonrpc !== '2.0') return;
    const m = message as { id?: string | number; method?: string };
    if (m.method === undefined && m.id !== undefined) this.pending.delete(m.id);
    this.onmessage?.(message as JSONRPCMessage);
  }

  /** A message over the limit: answers the request it belonged to with an error, when that is known. */
  private answerOversize(head: string, tail: string): void {
    const id = findResponseId(head, tail, this.pending);
    const text = tooLargeMessage(this.params.maxMessageBytes);
    if (id === undefined) {
      this.onerror?.(new Error(`The upstream sent a message larger than ${formatBytes(this.params.maxMessageBytes)}; it was dropped.`));
      return;
    }
    this.pending.delete(id);
    this.onmessage?.({ jsonrpc: '2.0', id, error: { code: RESULT_TOO_LARGE_CODE, message: text } } as JSONRPCMessage);
  }
}

/**
 * The line's pieces decoded one by one and joined as text: a tools/list of 5,000 tools is a 4–10 MB line,
 * and concatenating its bytes first made a malloc'd block that raised the C allocator's threshold when
 * freed (pagedBytes.ts). A character split between two pieces is carried over by the decoder.
 */
export function joinText(chunks: readonly Buffer[]): string {
  if (chunks.length === 1) return chunks[0]!.toString('utf8');
  const decoder = new StringDecoder('utf8');
  let text = '';
  for (const c of chunks) text += decoder.write(c);
  return text + decoder.end();
}

/** A copy of the first `n` bytes of `pieces` together. */
export function firstBytes(pieces: readonly Buffer[], n: number): Buffer {
  const taken: Buffer[] = [];
  for (let left = n, i = 0; left > 0 && i < pieces.length; i++) {
    taken.push(pieces[i]!.subarray(0, left));
    left -= taken[taken.length - 1]!.length;
  }
  return Buffer.concat(taken);
}

/** A copy of the last `n` bytes of `pieces` together (a copy: a read's whole piece is not kept for them). */
export function lastBytes(pieces: readonly Buffer[], n: number): Buffer {
  const taken: Buffer[] = [];
  for (let left = n, i = pieces.length - 1; left > 0 && i >= 0; i--) {
    const p = pieces[i]!;
    taken.unshift(p.subarray(Math.max(0, p.length - left)));
    left -= taken[0]!.length;
  }
  return Buffer.concat(taken);
}

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
const ID_AT_END = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*$`);
const ID_AT_START = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}`);
/** A message from the upstream with a method (a request or notification), its keys in the orders SDKs write them. */
const METHOD_AT_START = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?(?:"id"\s*:\s*${ID}\s*,\s*)?"method"\s*:`);

/**
 * The id of an oversize response: a top-level `id` as its last or first key (how SDKs serialize), else
 * the only request we have open. A request or notification from the upstream (it has a method) is none.
 */
export function findResponseId(head: string, tail: string, pending: ReadonlySet<string | number>): string | number | undefined {
  if (METHOD_AT_START.test(head)) return undefined;
  const m = ID_AT_END.exec(tail) ?? ID_AT_START.exec(head);
  if (m) {
    const id = JSON.parse(m[1]!) as string | number;
    if (pending.has(id)) return id;
  }
  return pending.size === 1 ? [...pending][0] : undefined;
}
