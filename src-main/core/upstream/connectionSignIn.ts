// The OAuth side of one upstream connection: what the window and the CLI are told about its sign-in,
// the sign-in link, a reset and a sign-out, and the turn of a refused token into "sign in again".
// The connection (connection.ts) keeps the socket and the status; this keeps what it knows of the
// sign-in and asks the connection, through SignInHost, to drop or reopen.
import { MwsError } from '../errors.js';
import type { Logger } from '../log.js';
import type { UpstreamJournal } from './journal.js';
import type { FinishesAuth, UpstreamAuth } from './oauth/upstreamAuth.js';
import type { SignInResult, UpstreamInfo, UpstreamStatus } from './types.js';
import { isUnauthorized } from './connectErrors.js';
import { CANNOT } from './signInActions.js';

/** What the connection lets its sign-in do to it. */
export type SignInHost = {
  status(): UpstreamStatus;
  /** Connected and up. */
  isUp(): boolean;
  /** Out of service until a sign-in: the connection is dropped, no retry waits, and the status says `sentence`. */
  awaitSignIn(sentence: string): Promise<void>;
  /** Connects now (no retry waiting), then tells the catalog it is up; rejects as the start did. */
  connectNow(): Promise<void>;
  /** Signed in: drops the old connection and connects again with the new tokens, in the background. */
  reopen(): void;
  /** Drops the connection (its session) and nothing more. */
  drop(): Promise<void>;
};

/** `lost`: it was signed in and the server stopped taking the sign-in (revoked, refresh expired). */
type AuthView = { signedIn: boolean; account?: string | undefined; expiresAt?: number; refreshable?: boolean; lost?: boolean };

export class ConnectionSignIn {
  /** What the OAuth store said at the last connect or sign-out (info() is synchronous). */
  private view: AuthView | undefined;

  constructor(
    private readonly vendor: string,
    private readonly auth: UpstreamAuth | undefined,
    private readonly host: SignInHost,
    private readonly log: Logger,
    private readonly journal: UpstreamJournal | undefined,
  ) {}

  /** Reads the store at a connect: a sign-in saved by an earlier run counts until the server refuses it. */
  async load(onlyFirst: boolean): Promise<void> {
    if (!this.auth || (onlyFirst && this.view !== undefined)) return;
    this.view = await this.auth.signedIn().catch(() => undefined);
  }

  /** The `auth` part of the upstream's info, when there is a sign-in to speak of. */
  info(): { auth?: UpstreamInfo['auth'] } {
    if (!this.auth) return {};
    const v = this.view;
    const waiting = this.auth.pendingUrl() !== undefined || this.auth.redeeming();
    if (!v?.signedIn && !waiting && this.host.status() !== 'needs-sign-in') return {};
    return {
      auth: {
        signedIn: v?.signedIn ?? false,
        ...(v?.account ? { account: v.account } : {}),
        waiting,
        ...(v?.lost ? { lost: true } : {}),
        ...(v?.signedIn && v.expiresAt !== undefined
          ? { expiresAt: new Date(v.expiresAt).toISOString(), refreshable: v.refreshable === true }
          : {}),
      },
    };
  }

  /** What a call or a list is told while the upstream waits for a sign-in. */
  error(): MwsError {
    return new MwsError(
      'upstream_needs_sign_in',
      `Upstream "${this.vendor}" needs you to sign in${this.view?.lost ? ' again: the server no longer takes the earlier sign-in' : ''}. Run \`mws login ${this.vendor}\`, or click Sign in on the Upstreams screen of the window, then try again.`,
      { vendor: this.vendor },
    );
  }

  /**
   * An error the SDK raised because the server wants a (new) sign-in, with the SDK's authorization URL
   * at hand, becomes the upstream's sign-in link and a `needs-sign-in` status; other errors pass as they are.
   */
  async needed(err: unknown, via: FinishesAuth | undefined): Promise<unknown> {
    const auth = this.auth;
    if (!auth || !via || !isUnauthorized(err)) return err;
    if (!auth.captureFlow(via, () => this.host.reopen())) return err;
    // Signed in until now (the token was revoked, the refresh expired): "sign in again", not "sign in".
    const lost = this.view?.signedIn === true;
    this.view = { signedIn: false, ...(lost || this.view?.lost ? { lost: true } : {}) };
    // Said in the upstream's log in words, not only as the SDK's invalid_grant on stderr.
    if (lost)
      this.journal?.event(
        `the server no longer takes the sign-in (revoked, or its refresh expired): sign in again with \`mws login ${this.vendor}\` or Sign in on the Upstreams screen`,
      );
    const e = this.error();
    await this.host.awaitSignIn(e.message);
    return e;
  }

  async signIn(): Promise<SignInResult> {
    const auth = this.required('does not sign in with OAuth: it is not an HTTP server, or its config says "oauth": false');
    const first = await this.link(auth);
    if (first.status !== 'waiting' || !(await auth.linkRefused(first.url!))) return first;
    // The authorization server forgot our registration (restarted, revoked it): register again.
    this.log.warn(
      `upstream "${this.vendor}": the authorization server no longer knows Working Set's registration; registering again for a new sign-in link.`,
    );
    await auth.forgetClient();
    await this.host.drop();
    return this.link(auth);
  }

  /** Forgets the sign-in and the registration (nothing asked of the server) and starts a new sign-in. */
  async reset(): Promise<SignInResult> {
    const auth = this.required(CANNOT.resetSignIn);
    await auth.reset();
    this.view = { signedIn: false };
    await this.host.awaitSignIn(`The sign-in to "${this.vendor}" was reset. Sign in to use its tools.`);
    return this.signIn();
  }

  /** Revokes the tokens where the server offers it (`fetchFn` reaches it within the connection's bounds). */
  async signOut(fetchFn: Parameters<UpstreamAuth['signOut']>[0]): Promise<{ revoked: boolean }> {
    const auth = this.required(CANNOT.signOut);
    const result = await auth.signOut(fetchFn);
    this.view = { signedIn: false };
    await this.host.awaitSignIn(`Signed out of "${this.vendor}". Sign in again to use its tools.`);
    return result;
  }

  private required(why: string): UpstreamAuth {
    if (!this.auth) throw new MwsError('conflict', `Upstream "${this.vendor}" ${why}.`, { vendor: this.vendor });
    return this.auth;
  }

  private async link(auth: UpstreamAuth): Promise<SignInResult> {
    const waiting = auth.pendingUrl();
    if (waiting) return { vendor: this.vendor, status: 'waiting', url: waiting };
    const answer = async (): Promise<SignInResult> => ({
      vendor: this.vendor,
      status: (await auth.signedIn()).signedIn ? 'signed-in' : 'not-needed',
    });
    if (this.host.isUp()) return answer();
    // A fresh attempt: its 401 makes the SDK ask for the authorization URL that becomes the link.
    try {
      await this.host.connectNow();
      return await answer();
    } catch (err) {
      const url = auth.pendingUrl();
      if (url) return { vendor: this.vendor, status: 'waiting', url };
      throw err;
    }
  }
}
