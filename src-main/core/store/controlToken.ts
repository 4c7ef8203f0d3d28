// The per-install secret that guards /control: a random token in stateDir/control-token (0600).
// Whoever can read that file is the user; a web page on another origin cannot.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const TOKEN_FILE = 'control-token';

export async function readToken(stateDir: string): Promise<string | undefined> {
  try {
    return (await readFile(join(stateDir, TOKEN_FILE), 'utf8')).trim() || undefined;
  } catch {
    return undefined;
  }
}

export async function ensureToken(stateDir: string): Promise<string> {
  const existing = await readToken(stateDir);
  if (existing) return existing;
  const token = randomBytes(32).toString('base64url');
  await mkdir(stateDir, { recursive: true });
  await writeFile(join(stateDir, TOKEN_FILE), token + '\n', { mode: 0o600 });
  return token;
}

/** The token of an `Authorization: Bearer <token>` header (the scheme in any case, as RFC 9110 says). */
export function bearerToken(authorization: string | null | undefined): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
}

/** Constant-time comparison, so the token cannot be guessed a byte at a time from response times. */
export function tokenMatches(given: string | undefined | null, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
