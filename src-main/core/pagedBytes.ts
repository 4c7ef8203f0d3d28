// Large buffers from whole pages of their own instead of from the C allocator's heap.
//
// glibc's malloc serves a block of at least its mmap threshold (128 KB at start) with pages of its own,
// and gives them back when the block is freed, but it then raises the threshold to that block's size
// (up to 32 MB): a 4 MB file read once makes every later block under 4 MB come from its heap. A heap
// whose top a later small block pins keeps the pages of what was freed under it, so after the start's
// large reads and writes mws serve kept ~25 MB of freed memory resident at 5,000 tools
// (docs/research/measured.md). Nothing in Node 20 can fix the threshold after start (mallopt is out of
// reach, MALLOC_MMAP_THRESHOLD_ is read at exec). So the blocks this program makes and frees at
// megabytes — files read and written whole, bodies of megabytes — come from here: a WebAssembly
// memory's pages, which V8 maps itself and unmaps when the memory is collected, never touching the
// C heap or its threshold. Small ones, and any Node without WebAssembly (--jitless), use a Buffer.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';

/** Under this, a Buffer as usual: glibc's own threshold at start, below which it uses its heap anyway. */
export const PAGED_MIN_BYTES = 128 * 1024;
/** Text shorter than this is under PAGED_MIN_BYTES as UTF-8 whatever it holds (at most 3 bytes a UTF-16 unit). */
export const PAGED_MIN_CHARS = PAGED_MIN_BYTES / 3;
const WASM_PAGE = 65536;
/** Node's own limit for strings it makes from bytes as other heap strings (larger ones live in malloc'd memory). */
const PIECE_CHARS = 512 * 1024;

const paged = new WeakSet<ArrayBufferLike>();

/** Whether these bytes live in pages of their own (for tests: the allocator's blocks and these look alike). */
export function isPaged(bytes: ArrayBufferView): boolean {
  return paged.has(bytes.buffer);
}

/** After a memory could not be made, how long to use the allocator before trying again (a clock set back counts as time passed). */
export const PAGES_RETRY_MS = 5 * 60_000;
let pagesFailedAt: number | undefined;

/** `bytes` of zeroed memory: whole pages of their own for large sizes, a Buffer for small ones. */
export function pagedBuffer(bytes: number, now: () => number = Date.now): Buffer<ArrayBuffer> {
  if (
    bytes >= PAGED_MIN_BYTES &&
    typeof WebAssembly === 'object' &&
    (pagesFailedAt === undefined || Math.abs(now() - pagesFailedAt) >= PAGES_RETRY_MS)
  ) {
    const pages = Math.ceil(bytes / WASM_PAGE);
    try {
      const memory = new WebAssembly.Memory({ initial: pages, maximum: pages }).buffer;
      pagesFailedAt = undefined;
      paged.add(memory);
      return Buffer.from(memory, 0, bytes);
    } catch {
      // No address space for one more memory (each reserves ~10 GiB: a ulimit -v, or the V8 sandbox's
      // cap in Electron). V8 ran full collections before giving up, so the next buffers do not ask again soon.
      pagesFailedAt = now();
    }
  }
  return Buffer.alloc(bytes);
}

/** Whether large buffers are paged here now (tests: a ulimit -v or --jitless leaves them to the allocator). */
export function pagesAvailable(): boolean {
  return isPaged(pagedBuffer(PAGED_MIN_BYTES));
}

/** `text` as UTF-8 bytes, in paged memory when large (a string written to a file or socket is otherwise encoded into a malloc'd block). */
export function encodePaged(text: string): Buffer<ArrayBuffer> {
  if (text.length < PAGED_MIN_CHARS) return Buffer.from(text, 'utf8');
  const out = pagedBuffer(Buffer.byteLength(text, 'utf8'));
  out.write(text, 0, 'utf8');
  return out;
}

/** The pages a PagedText fills before it starts others. */
export const PAGED_TEXT_CHUNK_BYTES = 1024 * 1024;

/**
 * Text appended as UTF-8 to paged chunks of a megabyte (or of one piece, when larger): a body of megabytes
 * made in pieces is encoded as each piece comes, so neither the whole text nor its pieces are kept to the
 * end, and nothing is copied again as it grows. A piece is never split: it starts a new chunk when the
 * current one cannot hold it (the rest of that one is left unused, address space but no RSS: its pages
 * are never touched).
 */
export class PagedText {
  private readonly done: Buffer[] = [];
  private buf: Buffer<ArrayBuffer> | undefined;
  private at = 0;

  append(text: string): void {
    if (text === '') return;
    // Three bytes a UTF-16 unit at most: the common case writes without measuring the text first.
    if (!this.buf || text.length * 3 > this.buf.length - this.at) {
      const need = Buffer.byteLength(text, 'utf8');
      if (!this.buf || need > this.buf.length - this.at) {
        if (this.buf && this.at > 0) this.done.push(this.buf.subarray(0, this.at));
        this.buf = pagedBuffer(Math.max(need, PAGED_TEXT_CHUNK_BYTES));
        this.at = 0;
      }
    }
    this.at += this.buf.write(text, this.at, 'utf8');
  }

  /** What was appended, in order (views of the chunks, which nothing appends to after this). */
  chunks(): Buffer[] {
    return this.buf && this.at > 0 ? [...this.done, this.buf.subarray(0, this.at)] : [...this.done];
  }
}

/** Concatenation of `pieces` in one buffer, paged when large (Buffer.concat's block is malloc'd). */
export function concatPaged(pieces: readonly Uint8Array[]): Buffer {
  let total = 0;
  for (const p of pieces) total += p.length;
  const out = pagedBuffer(total);
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A file's bytes, in paged memory when large (readFile's block is malloc'd). */
export async function readFilePaged(path: string): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const out = pagedBuffer((await fh.stat()).size);
    let at = 0;
    const more: Buffer[] = [];
    for (;;) {
      const into = at < out.length ? out : Buffer.allocUnsafe(16 * 1024);
      const { bytesRead } = await fh.read(into, into === out ? at : 0, into === out ? out.length - at : into.length, null);
      if (bytesRead === 0) return whole(out, at, more);
      if (into === out) at += bytesRead;
      else more.push(into.subarray(0, bytesRead));
    }
  } finally {
    await fh.close();
  }
}

/** The same, synchronously (the CLI's start). */
export function readFilePagedSync(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const out = pagedBuffer(fstatSync(fd).size);
    let at = 0;
    const more: Buffer[] = [];
    for (;;) {
      const into = at < out.length ? out : Buffer.allocUnsafe(16 * 1024);
      const n = readSync(fd, into, into === out ? at : 0, into === out ? out.length - at : into.length, null);
      if (n === 0) return whole(out, at, more);
      if (into === out) at += n;
      else more.push(into.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
}

/** What was read: shorter than the size stat gave, or longer (the file grew meanwhile; ours are replaced by rename, so rarely). */
function whole(out: Buffer, at: number, more: Buffer[]): Buffer {
  if (at < out.length) return out.subarray(0, at);
  return more.length ? concatPaged([out, ...more]) : out;
}

/** A file's text (UTF-8) read through paged memory. */
export async function readTextPaged(path: string): Promise<string> {
  return (await readFilePaged(path)).toString('utf8');
}

/**
 * Bytes as Latin-1 text, decoded in pieces: Node keeps a Latin-1 string of over ~1 MB made from bytes in
 * malloc'd memory, freed (and the threshold raised) when the string goes; pieces are ordinary heap strings.
 */
export function latin1InPieces(bytes: Buffer): string {
  if (bytes.length <= PIECE_CHARS) return bytes.toString('latin1');
  const parts: string[] = [];
  for (let at = 0; at < bytes.length; at += PIECE_CHARS) parts.push(bytes.toString('latin1', at, Math.min(bytes.length, at + PIECE_CHARS)));
  return parts.join('');
}
