// Sealing for the shared store: round trips, and every wrong key or damaged value is a sentence, never garbage.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MwsError } from '../../../src-main/core/errors.js';
import { loadSealingKey, parseKey, seal, unseal } from '../../../src-main/core/statestore/seal.js';

const b64 = () => randomBytes(32).toString('base64');

function refusal(f: () => unknown): MwsError {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(MwsError);
    return err as MwsError;
  }
  throw new Error('expected a refusal');
}

describe('sealing', () => {
  it('round-trips, and the sealed text holds neither the value nor the key', () => {
    const text = b64();
    const k = parseKey(text, 'test');
    const sealed = seal(k, 'secret:gh', 'ghp_very_secret');
    expect(sealed).not.toContain('ghp_very_secret');
    expect(sealed).not.toContain(text);
    expect(unseal(k, 'secret:gh', sealed)).toBe('ghp_very_secret');
    expect(seal(k, 'secret:gh', 'ghp_very_secret')).not.toBe(sealed);
  });

  it('another key is named as such, with both key ids', () => {
    const a = parseKey(b64(), 'a');
    const b = parseKey(b64(), 'b');
    const e = refusal(() => unseal(b, 'secret:gh', seal(a, 'secret:gh', 'v')));
    expect(e.code).toBe('state_key');
    expect(e.message).toContain(a.id);
    expect(e.message).toContain('same MWS_STATE_KEY');
  });

  it('a value moved to another name, or changed, does not open', () => {
    const k = parseKey(b64(), 'k');
    const sealed = seal(k, 'secret:a', 'v');
    expect(refusal(() => unseal(k, 'secret:b', sealed)).code).toBe('state_key');
    const parts = sealed.split('.');
    parts[4] = Buffer.from('tampered').toString('base64url');
    expect(refusal(() => unseal(k, 'secret:a', parts.join('.'))).message).toMatch(/does not open/);
    expect(refusal(() => unseal(k, 'secret:a', 'plain text')).code).toBe('state_key');
  });

  it('the key comes from MWS_STATE_KEY (base64 or hex) or a file; missing or short is a sentence saying what to set', () => {
    const bytes = randomBytes(32);
    expect(loadSealingKey({ MWS_STATE_KEY: bytes.toString('hex') }).bytes.equals(bytes)).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'mws-key-'));
    writeFileSync(join(dir, 'key'), bytes.toString('base64') + '\n');
    expect(loadSealingKey({}, join(dir, 'key')).bytes.equals(bytes)).toBe(true);
    expect(loadSealingKey({ MWS_STATE_KEY_FILE: join(dir, 'key') }).bytes.equals(bytes)).toBe(true);
    expect(refusal(() => loadSealingKey({})).message).toMatch(/No sealing key is set.*openssl rand -base64 32/);
    expect(refusal(() => loadSealingKey({ MWS_STATE_KEY: 'c2hvcnQ=' })).message).toMatch(/not 32 bytes/);
    expect(refusal(() => loadSealingKey({}, join(dir, 'missing'))).message).toMatch(/cannot be read/);
  });
});
