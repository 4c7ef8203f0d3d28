// Console mode: the desktop app shows a remote Working Set (a team's shared instance) instead of hosting
// the core. Its ControlApi is the HTTP client the CLI uses, with the operator's token (a fresh one for
// every call, refreshed when about to expire: core/operators/logins.ts), and its events are the remote
// stream (eventsClient.ts), reconnecting by itself. With no sign-in kept for that URL (or one the
// provider no longer renews), the device sign-in starts and the browser opens its link.
import type { ControlApi, StatusView } from '../core/control/api.js';
import { httpControlClient } from '../core/control/transport/httpClient.js';
import { followRemoteEvents } from '../core/control/transport/eventsClient.js';
import { deviceSignIn } from '../core/operators/deviceSignIn.js';
import { operatorToken } from '../core/operators/logins.js';
import { MwsError, errorMessage } from '../core/errors.js';
import type { Clock } from '../core/clock.js';
import type { DesktopCore } from './desktopCore.js';

/** How long a call to the remote instance may take. */
const CALL_MS = 15_000;
/** How long the person has to confirm a sign-in in the browser. */
const SIGN_IN_WAIT_MS = 15 * 60 * 1000;

export type RemoteCoreDeps = {
  /** The instance's URL, checked (core/operators/logins.ts instanceUrl). */
  url: string;
  /** Where the operator's sign-ins are kept: the local config's state folder, as the CLI keeps them. */
  stateDir: string;
  /** Opens a sign-in link in the system browser. */
  openLink: (url: string) => void;
  clock: Clock;
  /** The sign-in and the kept token (tests give twins; by default the device flow and logins.ts). */
  deviceSignIn?: typeof deviceSignIn;
  operatorToken?: typeof operatorToken;
};

export function startRemoteCore(d: RemoteCoreDeps): DesktopCore {
  const watchers = new Set<() => void>();
  const changed = () => watchers.forEach((w) => w());
  let note: string | undefined;
  let signingIn: Promise<void> | undefined;
  /** After a sign-in that did not complete, a new one waits for the person (the tray's "Sign in…"). */
  let autoSignIn = true;
  let last: StatusView | undefined;

  const setNote = (n: string | undefined) => {
    if (n === note) return;
    note = n;
    changed();
  };
  const signIn = () =>
    (signingIn ??= (d.deviceSignIn ?? deviceSignIn)(d.stateDir, d.url, {
      waitMs: SIGN_IN_WAIT_MS,
      again: 'Choose "Sign in" in the tray menu to try again.',
      onLink: (link, code) => {
        setNote(`Sign in to ${d.url}: confirm the code ${code} in your browser.`);
        d.openLink(link);
      },
    })
      .then(
        (login) => setNote(login.name ? `Signed in as ${login.name} (${login.role}).` : undefined),
        (err: unknown) => {
          // Refused, expired or unreachable: no new browser tab every few seconds; the tray offers it.
          autoSignIn = false;
          setNote(errorMessage(err));
        },
      )
      .finally(() => {
        signingIn = undefined;
      }));

  /** The operator's token; none kept (or no longer renewed): the sign-in starts, and this call fails with why. */
  const token = async (): Promise<string> => {
    try {
      return await (d.operatorToken ?? operatorToken)(d.stateDir, d.url);
    } catch (err) {
      if (err instanceof MwsError && err.code === 'sign_in_failed' && autoSignIn) void signIn();
      throw err;
    }
  };

  const api = httpControlClient(d.url, token, CALL_MS);
  // The last status names the agents and upstreams that notices need.
  const control: ControlApi = { ...api, status: async (a) => (last = await api.status(a)) };

  const stream = followRemoteEvents(d.url, token, d.clock);
  stream.onConnection(changed);

  return {
    control,
    events: stream.events,
    agentName: (id) => last?.agents.find((a) => a.id === id)?.name ?? id,
    upstreamRefused: (vendor) => last?.upstreams.find((u) => u.vendor === vendor)?.status === 'revoked',
    remote: {
      url: d.url,
      connected: () => stream.connected(),
      note: () => note,
      signIn: () => {
        autoSignIn = true;
        void signIn();
      },
      onChange(fn) {
        watchers.add(fn);
        return () => watchers.delete(fn);
      },
    },
    stop: async () => stream.close(),
  };
}
