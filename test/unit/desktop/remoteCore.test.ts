// The desktop console's sign-in, against twins of the device sign-in and of the kept token, on a
// clock moved by hand: with no sign-in kept it starts one and opens its link once; one that did not
// complete (refused in the browser) is not started again by every reconnect, only by the tray's
// "Sign in…", and the tray's note says what happened.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src-main/core/clock.js';
import { MwsError } from '../../../src-main/core/errors.js';
import { startRemoteCore } from '../../../src-main/desktop/remoteCore.js';
import { deadPort } from '../../helpers/processes.js';
import { until } from '../../helpers/wait.js';

/** Lets the pending callbacks and I/O of the current turn run (no time passes on any clock). */
const settle = () => new Promise<void>((r) => setImmediate(r));

describe('the desktop console signing in', () => {
  it('opens the sign-in link once; after a refusal only the tray starts another', async () => {
    const clock = new ManualClock();
    const opened: string[] = [];
    let attempts = 0;
    const core = startRemoteCore({
      url: `http://127.0.0.1:${await deadPort()}`,
      stateDir: '/nonexistent',
      clock,
      openLink: (link) => opened.push(link),
      operatorToken: async () => {
        throw new MwsError('sign_in_failed', 'You are not signed in.');
      },
      deviceSignIn: async (_dir, url, hooks) => {
        attempts++;
        await hooks.onLink(`https://login.example/device?user_code=ABCD-${attempts}`, `ABCD-${attempts}`, 60_000);
        throw new MwsError('sign_in_failed', `The sign-in to ${url} did not complete: it was refused in the browser. ${hooks.again}`);
      },
    });
    try {
      await until(() => core.remote!.note()?.includes('refused in the browser'), 'the refusal to show in the tray note');
      expect(core.remote!.note()).toContain('Choose "Sign in" in the tray menu to try again.');
      // A minute of reconnects (1 s, 2 s, 4 s… at most 15 s apart): none starts another sign-in.
      for (let s = 0; s < 60; s++) {
        clock.advance(1_000);
        await settle();
      }
      expect(attempts).toBe(1);
      expect(opened).toEqual(['https://login.example/device?user_code=ABCD-1']);
      // The tray's "Sign in…" starts one.
      core.remote!.signIn();
      await until(() => attempts === 2, 'the sign-in the tray asked for');
      expect(opened).toHaveLength(2);
    } finally {
      await core.stop();
    }
  });
});
