// What goes back to an agent, shaped in one place for both serving paths (proxy/results.ts).
import { describe, expect, it } from 'vitest';
import { callResult, listResultAround, sdkResult } from '../../../src-main/core/proxy/results.js';
import { SERVER_META } from '../../../src-main/core/proxy/caller.js';

const answer = { content: [{ type: 'text' as const, text: 'ok' }], _meta: { 'example.com/trace': 't1' } };

describe('result shaping', () => {
  it('lists for a 2025 session bare, and for a stateless 2026-07-28 request complete, private and uncached, with the proxy named', () => {
    const around = (json: string, era: 'session' | 'stateless') => listResultAround(era).join(json);
    expect(JSON.parse(around('[{"name":"a"}]', 'session'))).toEqual({ tools: [{ name: 'a' }] });
    expect(JSON.parse(around('[]', 'stateless'))).toEqual({
      tools: [],
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'private',
      _meta: SERVER_META,
    });
  });

  it('answers a call to a session as the upstream gave it, and a stateless call stamped complete with both _meta', () => {
    expect(callResult(answer, 'session')).toBe(answer);
    expect(callResult(answer, 'stateless')).toEqual({
      resultType: 'complete',
      content: answer.content,
      _meta: { 'example.com/trace': 't1', ...SERVER_META },
    });
    // An upstream's input_required answer keeps its type: the caller fulfils it and retries.
    const asks = { resultType: 'input_required', inputRequests: { r1: { method: 'elicitation/create' } }, content: [] };
    expect(callResult(asks as never, 'stateless')).toMatchObject({ resultType: 'input_required', inputRequests: asks.inputRequests });
  });

  it("hands the SDK an upstream's input_required as its own, and anything else unchanged", () => {
    const plain = { content: [] };
    expect(sdkResult(plain)).toBe(plain);
    const shaped = sdkResult({
      resultType: 'input_required',
      inputRequests: { r1: { method: 'roots/list' } },
      requestState: 's1',
    }) as Record<string, unknown>;
    expect(shaped).toMatchObject({ resultType: 'input_required', inputRequests: { r1: { method: 'roots/list' } }, requestState: 's1' });
  });
});
