// A short digest of a text: 22 base64url characters of its SHA-256 (132 bits), for telling stored or
// listed definitions apart without keeping their text.
import { createHash } from 'node:crypto';

export function textDigest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}
