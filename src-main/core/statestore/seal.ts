// Sealing secrets and sign-ins before they reach a shared store: AES-256-GCM from node:crypto, with a
// key that is never stored beside them (an environment variable or a file on each replica). Each sealed
// value names the key it was sealed with (a hash of it), so a replica with another key says so in a
// sentence instead of sending garbage upstream; the value's name is bound in, so rows cannot be swapped.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { MwsError, errorMessage } from '../errors.js';

export const STATE_KEY_ENV = 'MWS_STATE_KEY';
export const STATE_KEY_FILE_ENV = 'MWS_STATE_KEY_FILE';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const FORMAT = 'v1';

export type SealingKey = { readonly id: string; readonly bytes: Buffer };

const HOW =
  'Make one with `openssl rand -base64 32` and give every replica the same one, in MWS_STATE_KEY or in a file named by "store.postgres.keyFile" (or MWS_STATE_KEY_FILE); it is never stored in the database.';

/** A key from its text: 32 bytes as base64 or 64 hex digits. */
export function parseKey(text: string, where: string): SealingKey {
  const t = text.trim();
  const bytes = /^[0-9a-f]{64}$/i.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  if (bytes.length !== KEY_BYTES || (!/^[0-9a-f]{64}$/i.test(t) && bytes.toString('base64').replace(/=+$/, '') !== t.replace(/=+$/, ''))) {
    throw new MwsError('state_key', `The sealing key in ${where} is not 32 bytes in base64 (or 64 hex digits). ${HOW}`, { where });
  }
  return { bytes, id: createHash('sha256').update('mws-sealing-key-id\0').update(bytes).digest('hex').slice(0, 16) };
}

/** The key from the environment or a file; a missing or bad one is a sentence saying what to set. */
export function loadSealingKey(env: NodeJS.ProcessEnv, keyFile?: string): SealingKey {
  const inline = env[STATE_KEY_ENV];
  if (inline !== undefined && inline !== '') return parseKey(inline, STATE_KEY_ENV);
  const file = keyFile ?? env[STATE_KEY_FILE_ENV];
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new MwsError('state_key', `The sealing key file ${file} cannot be read (${errorMessage(err)}). ${HOW}`, { file });
    }
    return parseKey(text, file);
  }
  throw new MwsError('state_key', `No sealing key is set, and secrets and sign-ins are sealed before they reach the database. ${HOW}`);
}

/** `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url parts). `name` is bound in as associated data. */
export function seal(key: SealingKey, name: string, plain: string): string {
  const iv = randomBytes(IV_BYTES);
  const c = createCipheriv('aes-256-gcm', key.bytes, iv);
  c.setAAD(Buffer.from(name, 'utf8'));
  const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return [FORMAT, key.id, iv.toString('base64url'), c.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/** The plain value, or MwsError `state_key` saying which key is wrong: never a wrong value. */
export function unseal(key: SealingKey, name: string, sealed: string): string {
  const [format, id, iv, tag, body, extra] = sealed.split('.');
  if (format !== FORMAT || !id || iv === undefined || tag === undefined || body === undefined || extra !== undefined) {
    throw new MwsError('state_key', `The stored value of ${name} is not in the sealed format this Working Set reads; it was not used.`, {
      name,
    });
  }
  if (id !== key.id) {
    throw new MwsError(
      'state_key',
      `${name} was sealed with another key (id ${id}) than this replica's (id ${key.id}), so it was not used. Start every replica with the same MWS_STATE_KEY (or key file).`,
      { name, sealedWith: id, key: key.id },
    );
  }
  try {
    const d = createDecipheriv('aes-256-gcm', key.bytes, Buffer.from(iv, 'base64url'));
    d.setAAD(Buffer.from(name, 'utf8'));
    d.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([d.update(Buffer.from(body, 'base64url')), d.final()]).toString('utf8');
  } catch {
    throw new MwsError(
      'state_key',
      `The stored value of ${name} does not open with this replica's key (it was changed or damaged), so it was not used.`,
      {
        name,
      },
    );
  }
}
