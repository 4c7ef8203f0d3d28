// A version for each text of the config file: a hash, so a hand edit is a new version too. The
// running instance and the CLI compute the same one from the same file.
import { createHash } from 'node:crypto';

export function textVersion(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}
