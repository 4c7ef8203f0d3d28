// Tool vectors on disk (search-vectors.bin in the state folder), so a restart embeds only what changed.
// Binary: 5,000 tools × 384 floats are 7.7 MB, read in milliseconds (as JSON, ~40 MB to parse).
//   "MWSVEC1\n" | uint32 LE header length | header JSON {model, dim, keys} | keys.length × dim float32 LE | sha256 of all before
// A file that fails any check is moved aside (<name>.damaged-<time>) with one warning and rebuilt.
import { createHash } from 'node:crypto';
import { readFile, rename } from 'node:fs/promises';
import type { Logger } from '../../log.js';
import { writeFileAtomicSynced } from '../../store/atomicJson.js';

export const VECTOR_CACHE_FILE = 'search-vectors.bin';
const MAGIC = Buffer.from('MWSVEC1\n', 'ascii');
const SHA_BYTES = 32;

export type CachedVectors = { model: string; dim: number; vectors: Map<string, Float32Array> };

export function encodeVectors(model: string, dim: number, vectors: ReadonlyMap<string, Float32Array>): Buffer {
  const keys = [...vectors.keys()];
  const header = Buffer.from(JSON.stringify({ model, dim, keys }), 'utf8');
  const len = Buffer.alloc(4);
  len.writeUInt32LE(header.length);
  const body = Buffer.alloc(keys.length * dim * 4);
  keys.forEach((k, i) => {
    const v = vectors.get(k)!;
    Buffer.from(v.buffer, v.byteOffset, dim * 4).copy(body, i * dim * 4);
  });
  const head = Buffer.concat([MAGIC, len, header, body]);
  return Buffer.concat([head, createHash('sha256').update(head).digest()]);
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
  // One aligned copy; each vector is a view into it.
  const all = new Float32Array(keys.length * d);
  Buffer.from(all.buffer).set(head.subarray(bodyStart));
  const vectors = new Map<string, Float32Array>();
  (keys as string[]).forEach((k, i) => vectors.set(k, all.subarray(i * d, (i + 1) * d)));
  return { model, dim: d, vectors };
}

/** Reads the cache; missing → undefined; damaged → moved aside, one warning, undefined. */
export async function readVectorCache(path: string, log: Logger): Promise<CachedVectors | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
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
  await writeFileAtomicSynced(path, encodeVectors(model, dim, vectors), 0o600);
}
