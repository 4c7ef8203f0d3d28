// The small wire helpers that several layers share (core/protocol.ts, store/controlToken.ts, toolbox/notFound.ts).
import { describe, expect, it } from 'vitest';
import { MODERN_REVISION, jsonRpcError, jsonRpcErrorBody } from '../../../src-main/core/protocol.js';
import { bearerToken } from '../../../src-main/core/store/controlToken.js';
import { noToolNamed } from '../../../src-main/core/toolbox/notFound.js';

describe('shared wire helpers', () => {
  it('reads a Bearer token in any case of the scheme, and nothing else', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer  abc ')).toBe('abc');
    expect(bearerToken('abc')).toBeUndefined();
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken('Bearer ')).toBeUndefined();
    expect(bearerToken(null)).toBeUndefined();
  });

  it('builds JSON-RPC errors with a null id, as body or Response', async () => {
    expect(JSON.parse(jsonRpcErrorBody(-32700, 'Parse error.'))).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error.' },
    });
    const r = jsonRpcError(404, -32001, 'Session not found.');
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(await r.json()).toMatchObject({ error: { code: -32001 } });
    expect(MODERN_REVISION).toBe('2026-07-28');
  });

  it('says "no tool" one way, with what is known', () => {
    expect(noToolNamed('x', [])).toBe('No tool named "x".');
    expect(noToolNamed('raed', ['read', 'reap'], { why: 'Its upstream "a" is down.', next: 'Use search_tools.' })).toBe(
      'No tool named "raed". Its upstream "a" is down. Close matches: read, reap. Use search_tools.',
    );
    expect(noToolNamed('t', [], { where: ' in the toolbox' })).toBe('No tool named "t" in the toolbox.');
  });
});
