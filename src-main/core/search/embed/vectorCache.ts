// Tool vectors on disk (search-vectors.bin in the state folder), so a restart embeds only what changed.
// Binary: 5,000 tools × 384 floats are 7.7 MB, read in milliseconds (as JSON, ~40 MB to parse).
//   "MWSVEC1\n" | uint32 LE header length | header JSON {model, dim, keys} | keys.length × dim float32 LE | sha256 of all before
// A file that fails any check is moved aside (<name>.damaged-<time>) with one warning and rebuilt.
import { createHash } from 'node:crypto';
import { rename } from 'node:fs/promises';
import type { Logger } from '../../log.js';
import { writeFileAtomicSynced } from '../../store/atomicJson.js';
import { pagedBuffer, readFilePaged } from '../../pagedBytes.js';

export const VECTOR_CACHE_FILE = 'search-vectors.bin';
const MAGIC = Buffer.from('MWSVEC1\n', 'ascii');
const SHA_BYTES = 32;

export type CachedVectors = { model: string; dim: number; vectors: Map<string, Float32Array> };

/** Vectors copied and hashed per slice of the file: 500 of 384 floats are 0.77 MB, a millisecond or two. */
export const ENCODE_SLICE_VECTORS = 500;

/**
 * The file's bytes, made in one buffer a slice of vectors at a time (a yield after each), hashed as they
 * are copied: at 5,000 tools, concatenating the whole 7.7 MB twice and hashing it in one go held the
 * event loop ~30 ms and left three buffers of that size for the collector.
 */
export function* encodeSlices(model: string, dim: number, vectors: ReadonlyMap<string, Float32Array>): Generator<void, Buffer> {
  // Taken now: the map may change while the slices are made.
  const keys = [...vectors.keys()];
  const values = keys.map((k) => vectors.get(k)!);
  const header = Buffer.from(JSON.stringify({ model, dim, keys }), 'utf8');
  const bodyStart = MAGIC.length + 4 + header.length;
  const bytes = dim * 4;
  const out = pagedBuffer(bodyStart + keys.length * bytes + SHA_BYTES);
  MAGIC.copy(out, 0);
  out.writeUInt32LE(header.length, MAGIC.length);
  header.copy(out, MAGIC.length + 4);
  const hash = createHash('sha256').update(out.subarray(0, bodyStart));
  for (let i = 0; i < values.length; i += ENCODE_SLICE_VECTORS) {
    const end = Math.min(values.length, i + ENCODE_SLICE_VECTORS);
    for (let j = i; j < end; j++) {
      const v = values[j]!;
      out.set(new Uint8Array(v.buffer, v.byteOffset, bytes), bodyStart + j * bytes);
    }
    hash.update(out.subarray(bodyStart + i * bytes, bodyStart + end * bytes));
    yield;
  }
  hash.digest().copy(out, out.length - SHA_BYTES);
  return out;
}

export function encodeVectors(model: string, dim: number, vectors: ReadonlyMap<string, Float32Array>): Buffer {
  const slices = encodeSlices(model, dim, vectors);
  for (;;) {
    const r = slices.next();
    if (r.done) return r.value;
  }
}

/** The vectors in `bytes`, or why they cannot be used. */
export function decodeVectors(bytes: Buffer): CachedVectors | { damaged: string } {
  if (bytes.length < MAGIC.length + 4 + SHA_BYTES || !bytes.subarray(0, MAGIC.length).equals(MAGIC))
    return { damaged: 'not a vector file' };
  const head = bytes.subarray(0, bytes.length - SHA_BYTES);
  if (
    !createHash('sha256')
      .update(head)
      .digest()
      .equals(bytes.subarray(bytes.length - SHA_BYTES))
  )
    return { damaged: 'its checksum is wrong' };
  const hlen = head.readUInt32LE(MAGIC.length);
  const start = MAGIC.length + 4;
  let header: { model?: unknown; dim?: unknown; keys?: unknown };
  try {
    header = JSON.parse(head.subarray(start, start + hlen).toString('utf8')) as typeof header;
  } catch {
    return { damaged: 'its header does not parse' };
  }
  const { model, dim, keys } = header;
  if (
    typeof model !== 'string' ||
    !Number.isInteger(dim) ||
    (dim as number) <= 0 ||
    !Array.isArray(keys) ||
    !keys.every((k) => typeof k === 'string')
  )
    return { damaged: 'its header is malformed' };
  const d = dim as number;
  const bodyStart = start + hlen;
  if (head.length - bodyStart !== keys.length * d * 4) return { damaged: 'its size does not match its header' };
  // One aligned copy, paged (pagedBytes.ts: it is freed when the toolbox's vectors are replaced); each vector is a view into it.
  const floats = pagedBuffer(keys.length * d * 4);
  floats.set(head.subarray(bodyStart));
  const all = new Float32Array(floats.buffer, floats.byteOffset, keys.length * d);
  const vectors = new Map<string, Float32Array>();
  (keys as string[]).forEach((k, i) => vectors.set(k, all.subarray(i * d, (i + 1) * d)));
  return { model, dim: d, vectors };
}

/** Reads the cache; missing → undefined; damaged → moved aside, one warning, undefined. */
export async function readVectorCache(path: string, log: Logger): Promise<CachedVectors | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFilePaged(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    log.warn(`${path} could not be read (${(err as Error).message}); tool vectors will be computed again.`);
    return undefined;
  }
  const got = decodeVectors(bytes);
  if ('damaged' in got) {
    const movedTo = `${path}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    await rename(path, movedTo).catch(() => {});
    log.warn(`${path} was damaged (${got.damaged}); it was moved to ${movedTo} and the tool vectors will be computed again.`);
    return undefined;
  }
  return got;
}

/** Writes the cache atomically (store/atomicJson.ts): a crash leaves the old file or the new one. */
export async function writeVectorCache(
  path: string,
  model: string,
  dim: number,
  vectors: ReadonlyMap<string, Float32Array>,
): Promise<void> {
  const slices = encodeSlices(model, dim, vectors);
  for (;;) {
    const r = slices.next();
    if (r.done) return writeFileAtomicSynced(path, r.value, 0o600);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
