// One rule names the client of a call on both serving paths (proxy/callerName.ts).
import { describe, expect, it } from 'vitest';
import { callerName } from '../../../src-main/core/proxy/caller.js';

describe('callerName', () => {
  it("takes the client's own name, else its session's, else its User-Agent, else says unknown", () => {
    expect(callerName('claude-code', 'sdk', 'node')).toBe('claude-code');
    expect(callerName(undefined, 'codex', 'node')).toBe('codex');
    expect(callerName(undefined, undefined, 'python-httpx/0.28')).toBe('python-httpx/0.28');
    expect(callerName(undefined, undefined, undefined)).toBe('unknown');
  });

  it('passes over a name that is not a string or is empty (a client may send anything)', () => {
    expect(callerName(42, { name: 'x' }, '', 'curl/8')).toBe('curl/8');
    expect(callerName(null)).toBe('unknown');
  });
});
