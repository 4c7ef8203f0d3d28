// The window's words for the core's errors: every config field a form edits maps to a sentence at that
// field, and upstream failures to a cause and a next step.
import { describe, expect, it } from 'vitest';
import { fieldError, upstreamFailure } from '../../../src-main/shared/errorWords.js';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import type { MwsError } from '../../../src-main/core/errors.js';

const refusal = (raw: unknown): MwsError => {
  try {
    validateConfig(raw, '/tmp/s');
  } catch (err) {
    return err as MwsError;
  }
  throw new Error('accepted');
};

describe('field errors in words', () => {
  it('names the form field and says what it takes, for the real validation messages', () => {
    expect(fieldError(refusal({ agents: [{ id: 'My Agent' }] }))).toEqual({
      field: 'id',
      text: expect.stringMatching(/^An id may use lowercase letters, digits and dashes/),
    });
    expect(fieldError(refusal({ agents: [{ id: 'a', cap: 0 }] }))).toEqual({
      field: 'cap',
      text: 'The cap is how many tools the agent lists: a whole number from 1 to 500 (not 0).',
    });
    expect(fieldError(refusal({ agents: [{ id: 'a', cap: null }] })).text).toBe(
      'Give the cap: how many tools the agent lists, a whole number from 1 to 500.',
    );
    expect(fieldError(refusal({ agents: [{ id: 'a', idleWindowDays: 0 }] })).field).toBe('idleWindowDays');
    expect(fieldError(refusal({ upstreams: { x: { url: '' } } }))).toEqual({
      field: 'url',
      text: "Give the server's URL, for example http://127.0.0.1:4483/mcp.",
    });
    expect(fieldError(refusal({ listen: { port: 70000 } }))).toEqual({
      field: 'port',
      text: 'The port is a whole number from 0 to 65535 (not 70000); 0 picks a free one.',
    });
    expect(fieldError({ message: 'Something else went wrong.' })).toEqual({ field: null, text: 'Something else went wrong.' });
  });
});

describe('upstream failures', () => {
  it('give the cause and the next step', () => {
    expect(upstreamFailure('spawn mcp-server-everythin ENOENT')).toBe(
      'The command `mcp-server-everythin` was not found. Check the spelling, or give its full path.',
    );
    expect(upstreamFailure('Version negotiation probe failed: fetch failed', { url: 'http://127.0.0.1:9/mcp' })).toBe(
      'Nothing answers at http://127.0.0.1:9/mcp. Check that the server is running and that the host and port are right.',
    );
    expect(upstreamFailure('HTTP 401 Unauthorized')).toMatch(/refused our credentials\. Check the Authorization header/);
    expect(upstreamFailure('HTTP 404')).toMatch(/usually answer at \/mcp/);
    expect(upstreamFailure('tools/list timed out after 5000 ms')).toMatch(/did not answer in time/);
  });
});
