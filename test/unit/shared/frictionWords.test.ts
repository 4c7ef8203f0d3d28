// Sentences that already say what to do are not told to "check the settings", and a misspelt
// "command" or "url" in an upstream is named with the spelling meant.
import { describe, expect, it } from 'vitest';
import { upstreamFailure } from '../../../src-main/shared/errorWords.js';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { tempDir } from '../../helpers/app.js';

describe('words that fit', () => {
  it('leave a sign-in, a start under way or a value asked for as they are', () => {
    for (const e of [
      'Upstream "a" needs you to sign in. Run `mws login a`, or click Sign in on the Upstreams screen of the window, then try again.',
      'Signed out of "a". Sign in again to use its tools.',
      'Upstream "a" is still starting (12 s); try again in a moment.',
    ])
      expect(upstreamFailure(e)).toBe(e);
    expect(upstreamFailure('something odd')).toBe('something odd. Check the settings and test again.');
  });

  it('name a misspelt command or url in an upstream', () => {
    expect(() => validateConfig({ upstreams: { x: { comand: 'npx' } } }, tempDir())).toThrow(/did you mean "command" for "comand"\?/);
    expect(() => validateConfig({ upstream: { ulr: 'https://a/mcp' } }, tempDir())).toThrow(/did you mean "url" for "ulr"\?/);
  });
});
