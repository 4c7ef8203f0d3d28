// The words of an upstream's sign-in state, the same in the CLI, the tray and the window.
import { describe, expect, it } from 'vitest';
import { statusPhrase, statusWord } from '../../../src-main/shared/statusWords.js';

describe('sign-in words', () => {
  it('tell never signed in, signed in, and a sign-in the server stopped taking apart', () => {
    expect(statusWord({ status: 'needs-sign-in', auth: { signedIn: false } })).toBe('needs sign-in');
    expect(statusWord({ status: 'needs-sign-in', auth: { signedIn: false, lost: true } })).toBe('needs sign-in again');
    expect(statusWord({ status: 'up', auth: { signedIn: true } })).toBe('up');
    expect(statusWord({ status: 'up' })).toBe('up');
    expect(statusWord({ status: 'needs-value', needs: ['TOKEN'] })).toBe('needs a value: TOKEN');
  });

  it('read as a sentence after a subject: "it needs sign-in", never "it is needs sign-in"', () => {
    expect(statusPhrase({ status: 'needs-sign-in' })).toBe('needs sign-in');
    expect(statusPhrase({ status: 'needs-value', needs: ['TOKEN'] })).toBe('needs a value: TOKEN');
    expect(statusPhrase({ status: 'up' })).toBe('is up');
    expect(statusPhrase({ status: 'down' })).toBe('is down');
  });
});
