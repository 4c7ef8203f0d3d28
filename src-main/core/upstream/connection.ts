// One upstream behind one SDK client: starts it within its own (long) start deadline, keeps starting
// in the background when a list cannot wait, retries a down upstream with backoff, keeps the last
// lines of a stdio server's stderr, and forwards what a downstream call brings with it (progress,
// server→client requests) through the DownstreamPeer of the call that caused it.
import type { Client, CallToolResult, ServerCapabilities, Tool, Transport } from '@modelcontextprotocol/client';
import { clientSdk, loadedClientSdk } from './clientSdk.js';
import type { UpstreamConfig } from '../config/schema.js';
import { MwsError, errorMessage } from '../errors.js';
import type { Logger } from '../log.js';
import { buildTransport, upstreamFetch, type BuiltTransport } from './transports.js';
import { RESTART_RESET_AFTER_MS, restartDelayMs } from './backoff.js';
import { DownLog, downSentence } from './downLog.js';
import { StderrTail } from './stderrTail.js';
import type { UpstreamJournal } from './journal.js';
import { PeerRouter } from './peers.js';
import { LIST_MAX_PAGES, listAllTools } from './toolList.js';
import type { CallOptions, SignInResult, Upstream, UpstreamInfo, UpstreamStatus } from './types.js';
import { maskValues, resolveUpstream, type ResolveParts } from '../secrets/refs.js';
import type { UpstreamAuth } from './oauth/upstreamAuth.js';
import { legacyIssuer } from './oauth/legacyIssuer.js';
import { MODERN_REVISION } from '../protocol.js';
import { within } from '../deadline.js';

/** The SDK's debounce of an upstream's tools/list_changed before it re-lists (its default is 300 ms). */
export const LIST_CHANGED_DEBOUNCE_MS = 30;
export { LIST_MAX_PAGES } from './toolList.js';
/** How long the re-list after an upstream's tools/list_changed may take (no caller is waiting on it). */
export const LIST_CHANGED_RELIST_MS = 60_000;

export type ConnectionOptions = {
  vendor: string;
  config: UpstreamConfig;
  log: Logger;
  clientName: string;
  /** How long one start (spawn + initialize, or HTTP connect) may take. Longer than the list budget. */
  connectMs: number;
  /** The largest stdio message forwarded; a larger result is answered with a sentence. */
  maxResultBytes: number;
  /** Called with the upstream's new tool list when it announces a change. */
  onToolsChanged: (tools: Tool[]) => void;
  /** Called when the upstream came up after a list stopped waiting for it, or after a restart/retry. */
  onUp: () => void;
  /** Called when a start failed (the upstream is down and will be retried). */
  onDown?: () => void;
  /** Upstream notifications that are not about one call (resources, prompts list_changed, resources/updated). */
  onNotification?: (method: string, params: Record<string, unknown> | undefined) => void;
  now: () => number;
  /** Replaces the transport the config describes (unit tests link an in-memory server). */
  transport?: () => Promise<BuiltTransport>;
  /** Where `${secret:…}` and `${input:…}` values are read at connect time (none: every reference is missing). */
  values?: ResolveParts;
  /** Where its stderr and connection events go for the log view (journal.ts). */
  journal?: UpstreamJournal;
  /** The OAuth client of an HTTP upstream (none: static headers only, a 401 is "revoked"). */
  auth?: UpstreamAuth;
};

/** With no store given, every reference is a value still missing. */
const NO_VALUES: ResolveParts = { secrets: { get: async () => undefined }, env: process.env };

type Live = { client: Client; built: BuiltTransport; connectedAt: number };

/**
 * A proxy forwards the upstream's result as it is and leaves judging it to the client, so results
 * are not parsed against the result schema here (callTool() would, at a real share of each call's cost).
 */
const PASS_THROUGH = { '~standard': { version: 1 as const, vendor: 'mcp-working-set', validate: (value: unknown) => ({ value }) } };

/** Notifications from an upstream that concern every client, not one call. */
const BROADCAST_NOTIFICATIONS = [
  'notifications/resources/list_changed',
  'notifications/resources/updated',
  'notifications/prompts/list_changed',
] as const;

export class UpstreamConnection implements Upstream {
  readonly vendor: string;
  private live: Live | undefined;
  private connecting: Promise<Live> | undefined;
  private connectStartedAt = 0;
  private status: UpstreamStatus = 'starting';
  private lastError: string | undefined;
  private closed = false;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  /** A list gave up waiting for the start: say so (onUp) when the upstream comes up. */
  private listWaiting = false;
  private readonly stderr = new StderrTail();
  /** Logs a down upstream when the reason changes and then ever more rarely, not on every retry. */
  private readonly downLog = new DownLog();
  private readonly peers = new PeerRouter();
  /** The revision a server named when it refused our 2025 opening. */
  private pinnedEra: string | undefined;
  /** Values the last start read from references: masked in every error and stderr line shown. */
  private secretValues: string[] = [];
  /** What the config still needs from the user (status `needs-value`). */
  private needs: string[] = [];
  /** The server did not take Streamable HTTP at connect: it is reached over the old HTTP+SSE transport. */
  private sse: boolean;
  /** What the OAuth store said at the last connect or sign-out (info() is synchronous). */
  /** `lost`: it was signed in and the server stopped taking the sign-in (revoked, refresh expired). */
  private authView:
    { signedIn: boolean; account?: string | undefined; expiresAt?: number; refreshable?: boolean; lost?: boolean } | undefined;

  constructor(private readonly opts: ConnectionOptions) {
    this.vendor = opts.vendor;
    this.sse = opts.config.kind === 'http' && opts.config.transport === 'sse';
  }

  info(): UpstreamInfo {
    const tail = this.status === 'up' ? [] : this.stderr.lines().map((l) => maskValues(l, this.secretValues));
    const reason =
      this.status === 'starting' && this.connecting && this.lastError === undefined
        ? `starting for ${Math.round((this.opts.now() - this.connectStartedAt) / 1000)} s`
        : this.lastError;
    return {
      vendor: this.vendor,
      kind: this.opts.config.kind,
      status: this.status,
      era: this.live?.client.getNegotiatedProtocolVersion(),
      lastError: reason === undefined ? undefined : tail.length ? `${reason}. Its stderr ended with: ${tail.join(' | ')}` : reason,
      stderr: tail,
      ...(this.status === 'needs-value' ? { needs: [...this.needs] } : {}),
      ...this.authInfo(),
    };
  }

  capabilities(): ServerCapabilities | undefined {
    return this.live?.client.getServerCapabilities();
  }

  async listTools(budgetMs: number): Promise<Tool[]> {
    const deadline = Date.now() + budgetMs;
    const remaining = () => Math.max(1, deadline - Date.now());
    try {
      return await this.listOnce(remaining);
    } catch (caught) {
      const first = this.scrub(await this.signInNeeded(caught));
      if (this.closed || isStarting(first) || isSignIn(first)) throw first;
      // A failed list on an open connection is most often an expired 2025 session or a restarted
      // server: re-open once within the same budget before giving up.
      if (this.live && Date.now() < deadline) {
        await this.drop();
        try {
          return await this.listOnce(remaining);
        } catch (caught) {
          const second = this.scrub(caught);
          if (!isStarting(second)) this.markDown(second);
          throw second;
        }
      }
      this.markDown(first);
      throw first;
    }
  }

  async callTool(name: string, args: Record<string, unknown> | undefined, opts: CallOptions): Promise<CallToolResult> {
    return (await this.request('tools/call', { name, ...(args !== undefined ? { arguments: args } : {}) }, opts)) as CallToolResult;
  }

  async request(method: string, params: Record<string, unknown> | undefined, opts: CallOptions): Promise<Record<string, unknown>> {
    // A call while a sign-in waits would only start another sign-in: it is told how to sign in.
    if (!this.live && this.status === 'needs-sign-in') throw this.signInError();
    // An open connection is used as is: no deadline timer on the hot path.
    const live = this.live ?? (await this.waitForStart(opts.timeoutMs));
    const release = opts.peer ? this.peers.enter(opts.peer) : undefined;
    // A 2026-07-28 caller (or the fast path, which serves only those) fulfils an upstream's
    // input_required itself; a 2025 caller cannot, so the upstream client fulfils it through the
    // handlers that route to the caller (PeerRouter).
    const passInputRequired = !opts.peer || opts.peer.modern;
    const retry = opts.peer?.retry;
    if (retry && params) params = { ...params, ...retry };
    try {
      const token = opts.peer?.progressToken;
      const peer = opts.peer;
      // Progress sent on before the result: the result waits for them, or the last one could arrive
      // after the response stream closed.
      const forwarded: Array<Promise<void>> = [];
      const result = await live.client.request({ method, ...(params ? { params } : {}) } as never, PASS_THROUGH, {
        timeout: opts.timeoutMs,
        ...(passInputRequired ? { allowInputRequired: true } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
        // The caller's progress token goes upstream as a token of ours; progress comes back under theirs.
        ...(token !== undefined && peer
          ? {
              resetTimeoutOnProgress: true,
              onprogress: (p: Record<string, unknown>) =>
                void forwarded.push(
                  peer.notify({ method: 'notifications/progress', params: { ...p, progressToken: token } }).catch(() => {}),
                ),
            }
          : {}),
      });
      if (forwarded.length) await Promise.all(forwarded);
      return result as Record<string, unknown>;
    } catch (caught) {
      // Refused mid-connection (an expired grant, a step-up to more scopes): a sign-in link now waits.
      const err = await this.signInNeeded(caught);
      if (isSignIn(err)) throw err;
      // The call is not retried, but a broken session is dropped so the next list re-opens it.
      if (isTransportFailure(err)) await this.drop();
      throw this.scrub(err);
    } finally {
      release?.();
    }
  }

  async signIn(): Promise<SignInResult> {
    const auth = this.opts.auth;
    if (!auth)
      throw new MwsError(
        'conflict',
        `Upstream "${this.vendor}" does not sign in with OAuth: it is not an HTTP server, or its config says "oauth": false.`,
        { vendor: this.vendor },
      );
    const first = await this.signInLink(auth);
    if (first.status !== 'waiting' || !(await auth.linkRefused(first.url!))) return first;
    // The authorization server forgot our registration (restarted, revoked it): register again.
    this.opts.log.warn(
      `upstream "${this.vendor}": the authorization server no longer knows Working Set's registration; registering again for a new sign-in link.`,
    );
    await auth.forgetClient();
    await this.drop();
    return this.signInLink(auth);
  }

  /** Forgets the sign-in and the registration (nothing asked of the server) and starts a new sign-in. */
  async resetSignIn(): Promise<SignInResult> {
    const auth = this.opts.auth;
    if (!auth)
      throw new MwsError('conflict', `Upstream "${this.vendor}" does not sign in with OAuth, so there is no sign-in to reset.`, {
        vendor: this.vendor,
      });
    await auth.reset();
    this.authView = { signedIn: false };
    await this.drop();
    this.status = 'needs-sign-in';
    this.lastError = `The sign-in to "${this.vendor}" was reset. Sign in to use its tools.`;
    this.opts.onDown?.();
    return this.signIn();
  }

  private async signInLink(auth: UpstreamAuth): Promise<SignInResult> {
    const waiting = auth.pendingUrl();
    if (waiting) return { vendor: this.vendor, status: 'waiting', url: waiting };
    if (this.live && this.status === 'up')
      return { vendor: this.vendor, status: (await auth.signedIn()).signedIn ? 'signed-in' : 'not-needed' };
    // A fresh attempt: its 401 makes the SDK ask for the authorization URL that becomes the link.
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    try {
      await this.ensure();
      this.opts.onUp();
      return { vendor: this.vendor, status: (await auth.signedIn()).signedIn ? 'signed-in' : 'not-needed' };
    } catch (err) {
      const url = auth.pendingUrl();
      if (url) return { vendor: this.vendor, status: 'waiting', url };
      throw err;
    }
  }

  async signOut(): Promise<{ revoked: boolean }> {
    const auth = this.opts.auth;
    if (!auth)
      throw new MwsError('conflict', `Upstream "${this.vendor}" does not sign in with OAuth, so there is nothing to sign out of.`, {
        vendor: this.vendor,
      });
    const url = this.opts.config.kind === 'http' ? this.opts.config.url : undefined;
    const result = await auth.signOut(url ? upstreamFetch(url, { maxResultBytes: this.opts.maxResultBytes }, this.onBreach) : undefined);
    this.authView = { signedIn: false };
    await this.drop();
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.status = 'needs-sign-in';
    this.lastError = `Signed out of "${this.vendor}". Sign in again to use its tools.`;
    this.opts.onDown?.();
    return result;
  }

  private authInfo(): { auth?: UpstreamInfo['auth'] } {
    if (!this.opts.auth) return {};
    const waiting = this.opts.auth.pendingUrl() !== undefined || this.opts.auth.redeeming();
    if (!this.authView?.signedIn && !waiting && this.status !== 'needs-sign-in') return {};
    return {
      auth: {
        signedIn: this.authView?.signedIn ?? false,
        ...(this.authView?.account ? { account: this.authView.account } : {}),
        waiting,
        ...(this.authView?.lost ? { lost: true } : {}),
        ...(this.authView?.signedIn && this.authView.expiresAt !== undefined
          ? { expiresAt: new Date(this.authView.expiresAt).toISOString(), refreshable: this.authView.refreshable === true }
          : {}),
      },
    };
  }

  private signInError(): MwsError {
    return new MwsError(
      'upstream_needs_sign_in',
      `Upstream "${this.vendor}" needs you to sign in${this.authView?.lost ? ' again: the server no longer takes the earlier sign-in' : ''}. Run \`mws login ${this.vendor}\`, or click Sign in on the Upstreams screen of the window, then try again.`,
      { vendor: this.vendor },
    );
  }

  /**
   * An error the SDK raised because the server wants a (new) sign-in, with the SDK's authorization URL
   * at hand, becomes the upstream's sign-in link and a `needs-sign-in` status; other errors pass as they are.
   */
  private async signInNeeded(err: unknown, built = this.live?.built): Promise<unknown> {
    const auth = this.opts.auth;
    if (!auth || !built?.finishesAuth || !isUnauthorized(err)) return err;
    if (!auth.captureFlow(built.finishesAuth, () => this.afterSignIn())) return err;
    this.status = 'needs-sign-in';
    // Signed in until now (the token was revoked, the refresh expired): "sign in again", not "sign in".
    const lost = this.authView?.signedIn === true;
    this.authView = { signedIn: false, ...(lost || this.authView?.lost ? { lost: true } : {}) };
    // Said in the upstream's log in words, not only as the SDK's invalid_grant on stderr.
    if (lost)
      this.opts.journal?.event(
        `the server no longer takes the sign-in (revoked, or its refresh expired): sign in again with \`mws login ${this.vendor}\` or Sign in on the Upstreams screen`,
      );
    const e = this.signInError();
    this.lastError = e.message;
    await this.drop();
    this.opts.onDown?.();
    return e;
  }

  /** The callback redeemed the code: connect again with the new tokens and list. */
  private afterSignIn(): void {
    if (this.closed) return;
    this.status = 'starting';
    this.lastError = undefined;
    void this.drop().then(() =>
      this.ensure().then(
        () => this.opts.onUp(),
        () => {},
      ),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    // A start still under way is stopped too: left alone, its process came up after the close and ran on.
    const starting = this.startingWith;
    this.startingWith = undefined;
    if (starting) {
      starting.dispose();
      await starting.transport.close().catch(() => {});
    }
    await this.drop();
  }

  /** The transport of a start under way, until it is up or failed. */
  private startingWith: BuiltTransport | undefined;

  private async listOnce(remaining: () => number): Promise<Tool[]> {
    if (!this.live && this.status === 'needs-sign-in') throw this.signInError();
    const live = this.live ?? (await this.waitForStart(remaining()));
    const { tools, skipped, repeated } = await listAllTools(live.client, this.vendor, remaining);
    if (repeated.length)
      this.opts.log.warn(
        `upstream "${this.vendor}" listed ${repeated.length} tool name(s) more than once; the first of each is kept: ${repeated.slice(0, 5).join(', ')}${repeated.length > 5 ? ', …' : ''}`,
      );
    if (skipped.length)
      this.opts.log.warn(
        `upstream "${this.vendor}" listed ${skipped.length} malformed tool(s), left out: ${skipped.slice(0, 5).join(', ')}${skipped.length > 5 ? ', …' : ''}`,
      );
    this.status = 'up';
    this.lastError = undefined;
    return tools;
  }

  /** A re-list running for a tools/list_changed, and whether another change came in meanwhile. */
  private changeRelist: Promise<void> | undefined;
  private changedAgain = false;

  /** Lists again after tools/list_changed; changes that arrive meanwhile are covered by one more list. */
  private onListChanged(): void {
    if (this.changeRelist) {
      this.changedAgain = true;
      return;
    }
    this.changeRelist = (async () => {
      do {
        this.changedAgain = false;
        const deadline = Date.now() + LIST_CHANGED_RELIST_MS;
        try {
          const live = this.live;
          if (!live || this.closed) return;
          const { tools } = await listAllTools(live.client, this.vendor, () => Math.max(1, deadline - Date.now()));
          if (!this.closed) this.opts.onToolsChanged(tools);
        } catch (err) {
          if (!this.closed)
            this.opts.log.warn(`upstream "${this.vendor}" said its tools changed but did not list them: ${errorMessage(err)}`);
        }
      } while (this.changedAgain && !this.closed);
    })().finally(() => {
      this.changeRelist = undefined;
    });
  }

  /**
   * Waits up to `ms` for the upstream to be connected. The start itself keeps its own deadline: when
   * `ms` runs out first it keeps going, and onUp() tells the catalog once it is up.
   */
  private waitForStart(ms: number): Promise<Live> {
    return within(this.ensure(), ms, () => {
      this.listWaiting = true;
      return new MwsError('upstream_starting', `Upstream "${this.vendor}" is still starting; it will be listed as soon as it is up.`, {
        vendor: this.vendor,
      });
    });
  }

  private ensure(): Promise<Live> {
    if (this.live) return Promise.resolve(this.live);
    if (this.closed) return Promise.reject(new MwsError('upstream_unavailable', `Upstream "${this.vendor}" is shut down.`));
    if (!this.connecting) {
      clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
      this.connectStartedAt = this.opts.now();
      // A retry of a down upstream stays "down" (with its reason) until it is up again.
      if (this.status !== 'up' && this.status !== 'down' && this.status !== 'needs-value') this.status = 'starting';
      this.connecting = this.connect().then(
        (live) => {
          this.connecting = undefined;
          this.attempt = 0;
          const back = this.downLog.up(this.vendor);
          if (back) this.opts.log.info(back);
          if (this.listWaiting) {
            this.listWaiting = false;
            this.opts.onUp();
          }
          return live;
        },
        (err: unknown) => {
          this.connecting = undefined;
          this.markDown(err);
          this.scheduleRetry();
          this.opts.onDown?.();
          throw err;
        },
      );
      // A start nobody awaits any more must not become an unhandled rejection.
      this.connecting.catch(() => {});
    }
    return this.connecting;
  }

  private async connect(): Promise<Live> {
    const { Client } = await clientSdk();
    // References are read first, also for a transport given by a test: a value still missing stops here.
    const config = await this.resolved();
    // A sign-in saved by an earlier run counts as signed in until the server refuses it: then it was lost.
    if (this.opts.auth && this.authView === undefined) this.authView = await this.opts.auth.signedIn().catch(() => undefined);
    const built = await (this.opts.transport?.() ??
      buildTransport(
        config,
        { maxResultBytes: this.opts.maxResultBytes },
        { ...(this.opts.auth ? { auth: this.opts.auth } : {}), sse: this.sse, onBreach: this.onBreach },
      ));
    // The tail is kept across restarts: a retry must not hide why the last attempt died.
    built.stderr?.on('data', (chunk: Buffer) => {
      this.stderr.push(chunk);
      // The log view shows what the server printed, with any value read from a reference masked.
      this.opts.journal?.stderr(this.secretValues.length ? maskValues(chunk.toString('utf8'), this.secretValues) : chunk);
    });
    const client = new Client(
      { name: this.opts.clientName, version: '0.1.0' },
      {
        listMaxPages: LIST_MAX_PAGES,
        // Declared so upstreams offer the tools that need them; each request is routed to the
        // client whose call caused it, and refused with a sentence when that client lacks it.
        capabilities: { sampling: {}, elicitation: { form: {}, url: {} }, roots: { listChanged: true } },
        // Builtin upstreams run in this process on the same SDK, and stdio servers speak the 2025
        // protocol or answer initialize with the versions they speak: neither needs a probe (for
        // stdio, a probe would spawn the server twice). HTTP upstreams are probed for 2026-07-28.
        versionNegotiation: {
          mode: this.pinnedEra ? { pin: this.pinnedEra } : this.opts.config.kind === 'http' && !this.sse ? 'auto' : 'legacy',
          probe: { timeoutMs: this.opts.connectMs },
        },
        listChanged: {
          tools: {
            // A burst of notifications still coalesces; clients hear of a change within tens of ms, not 300.
            debounceMs: LIST_CHANGED_DEBOUNCE_MS,
            // The SDK's own re-list parses every tool with zod and caches the whole list: listed here instead.
            // (Configured at all so that a 2026-07-28 upstream is asked for list_changed on subscriptions/listen.)
            autoRefresh: false,
            onChanged: () => this.onListChanged(),
          },
        },
      },
    );
    this.peers.install(client, this.vendor);
    for (const method of BROADCAST_NOTIFICATIONS) {
      client.setNotificationHandler(method, (n: { params?: Record<string, unknown> }) => this.opts.onNotification?.(method, n.params));
    }
    this.startingWith = built;
    try {
      if (this.closed) throw new MwsError('upstream_unavailable', `Upstream "${this.vendor}" is shut down.`);
      await withDeadline(client.connect(built.transport, { timeout: this.opts.connectMs }), this.opts.connectMs, this.vendor, 'start');
      if (this.closed) throw new MwsError('upstream_unavailable', `Upstream "${this.vendor}" is shut down.`);
    } catch (caught) {
      if (this.startingWith === built) this.startingWith = undefined;
      built.dispose();
      await client.close().catch(() => {});
      const err = await this.signInNeeded(caught, built);
      if (isSignIn(err)) throw err;
      if (
        this.opts.auth &&
        !this.opts.auth.skipIssuerCheck &&
        cfgUrl(this.opts.config) &&
        legacyIssuer(caught, cfgUrl(this.opts.config)!)
      ) {
        this.opts.auth.skipIssuerCheck = true;
        this.opts.log.warn(
          `upstream "${this.vendor}" is a 2025-03-26 server whose authorization server names another issuer on the same origin (${errorMessage(caught)}); signing in without the issuer check, as that revision did.`,
        );
        return this.connect();
      }
      // It answered 401/403 and the OAuth flow found nothing to sign in with: our access is refused.
      const refusedWith = built.lastServerStatus?.();
      if ((refusedWith === 401 || refusedWith === 403) && !isRefused(err)) {
        throw new MwsError(
          'upstream_unavailable',
          `Upstream "${this.vendor}" refused access (HTTP ${refusedWith}) and offers no sign-in Working Set can use: ${errorMessage(err)}. Check its credentials.`,
          { vendor: this.vendor, status: refusedWith },
        );
      }
      // Streamable HTTP refused at the door (400/404/405): an old HTTP+SSE server, tried once that way.
      const cfg = this.opts.config;
      if (cfg.kind === 'http' && (cfg.transport ?? 'auto') === 'auto' && !this.sse && notStreamable(caught)) {
        this.sse = true;
        this.opts.log.warn(
          `upstream "${this.vendor}" did not take Streamable HTTP (${errorMessage(caught)}); trying the old HTTP+SSE transport.`,
        );
        try {
          return await this.connect();
        } catch (sseErr) {
          this.sse = false;
          throw sseErr;
        }
      }
      // A server that refused our 2025 opening and named the 2026-07-28 revision is started again in it
      // (once; the revision is kept for its restarts).
      const named = supportedVersions(err);
      if (!this.pinnedEra && named.includes(MODERN_REVISION)) {
        this.pinnedEra = MODERN_REVISION;
        this.opts.log.warn(`upstream "${this.vendor}" speaks only ${named.join(', ')}; connecting again in ${MODERN_REVISION}.`);
        return this.connect();
      }
      throw err;
    }
    this.startingWith = undefined;
    responsesAfterNotifications(built.transport);
    const live: Live = { client, built, connectedAt: this.opts.now() };
    client.onclose = () => this.onClosed(live);
    this.live = live;
    this.journaled.clear();
    this.opts.journal?.event(`connected (${client.getNegotiatedProtocolVersion() ?? 'protocol unknown'})`);
    // Connected is up: a call may come before the next list does.
    this.status = 'up';
    this.lastError = undefined;
    if (this.opts.auth) this.authView = await this.opts.auth.signedIn().catch(() => undefined);
    return live;
  }

  /** `text` with the values read from references masked (an upstream's error may quote its own key). */
  maskSecrets(text: string): string {
    return this.secretValues.length ? maskValues(text, this.secretValues) : text;
  }

  /** The error, its message masked where it quotes a secret value, so no log, reply or report shows it. */
  private scrub(err: unknown): unknown {
    if (this.secretValues.length && err instanceof Error) {
      const masked = maskValues(err.message, this.secretValues);
      if (masked !== err.message) err.message = masked;
    }
    return err;
  }

  /** The config with its references read (only now, when connecting), or the values it still needs. */
  private async resolved(): Promise<UpstreamConfig> {
    const r = await resolveUpstream(this.vendor, this.opts.config, this.opts.values ?? NO_VALUES);
    if (!r.ok) {
      this.needs = r.needs;
      throw new MwsError(
        'upstream_needs_value',
        `Upstream "${this.vendor}" needs a value: ${r.needs.join(', ')}. Fill it in on the Upstreams screen, or run \`mws upstream set ${this.vendor} ${r.needs[0]}\`.`,
        { vendor: this.vendor, needs: r.needs },
      );
    }
    this.needs = [];
    this.secretValues = r.secrets;
    return r.config;
  }

  private onClosed(live: Live): void {
    if (this.live !== live) return;
    this.live = undefined;
    if (this.closed) return;
    this.markDown(new Error('the connection closed'));
    if (this.opts.config.kind !== 'stdio') return;
    // A stdio child died: bring it back with backoff.
    if (this.opts.now() - live.connectedAt > RESTART_RESET_AFTER_MS) this.attempt = 0;
    this.opts.log.warn(`upstream "${this.vendor}" exited.`);
    this.opts.journal?.event('the process exited');
    this.scheduleRetry();
  }

  /** Tries again later, with backoff; a success tells the catalog (onUp), which lists it again. */
  private scheduleRetry(): void {
    // Waiting for a value or a sign-in, there is nothing to retry: giving it reconnects.
    if (this.closed || this.retryTimer || this.status === 'revoked' || this.status === 'needs-value' || this.status === 'needs-sign-in')
      return;
    const delay = restartDelayMs(this.attempt++);
    this.journalOnce(`retrying in ${Math.round(delay / 100) / 10} s`);
    const line = this.downLog.failed(this.vendor, this.lastError ?? 'unknown reason', this.opts.config, delay);
    if (line) this.opts.log.warn(line);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.closed || this.live || this.connecting) return;
      this.ensure().then(
        () => this.opts.onUp(),
        () => {},
      );
    }, delay);
    this.retryTimer.unref();
  }

  private markDown(err: unknown): void {
    this.status =
      err instanceof MwsError && err.code === 'upstream_needs_value'
        ? 'needs-value'
        : isSignIn(err)
          ? 'needs-sign-in'
          : isRefused(err)
            ? 'revoked'
            : 'down';
    this.lastError = maskValues(errorMessage(err), this.secretValues);
    // Down is said in the window's words, as the log and the CLI say it, not the SDK's "fetch failed".
    this.journalOnce(
      `${this.status === 'revoked' ? 'access refused' : this.status === 'needs-value' ? 'needs a value' : this.status === 'needs-sign-in' ? 'needs sign-in' : 'down'}: ${this.status === 'down' ? downSentence(this.lastError, this.opts.config) : this.lastError}`,
    );
  }

  /** Lines already in the log since the last connect: a retry every 30 s adds nothing new. */
  /** A read from the server or its sign-in server stopped at a bound (boundedFetch.ts): said in its log. */
  private readonly onBreach = (sentence: string): void => {
    this.opts.log.warn(`upstream "${this.vendor}": ${sentence}`);
    this.opts.journal?.event(sentence);
  };

  private readonly journaled = new Set<string>();

  private journalOnce(text: string): void {
    if (this.journaled.has(text)) return;
    this.journaled.add(text);
    this.opts.journal?.event(text);
  }

  private async drop(): Promise<void> {
    const live = this.live;
    this.live = undefined;
    if (!live) return;
    live.built.dispose();
    await live.client.close().catch(() => {});
  }
}

/**
 * The SDK dispatches notifications a microtask later but responses at once, and forgets a request's
 * progress handler on its response: the last progress notification before a result was dropped.
 * Responses are delivered a microtask later too, so everything arrives in wire order.
 */
function responsesAfterNotifications(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  transport.onmessage = (message, extra) => {
    const m = message as { method?: unknown; id?: unknown };
    if (m.method === undefined && m.id !== undefined) queueMicrotask(() => deliver(message, extra));
    else deliver(message, extra);
  };
}

/** The revisions an unsupported-protocol-version error names (`data.supported`), anywhere in its causes. */
function supportedVersions(err: unknown): string[] {
  for (let e = err as { data?: { supported?: unknown }; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    const s = e.data?.supported;
    if (Array.isArray(s)) return s.filter((v): v is string => typeof v === 'string');
  }
  return [];
}

function cfgUrl(cfg: UpstreamConfig): string | undefined {
  return cfg.kind === 'http' ? cfg.url : undefined;
}

function isSignIn(err: unknown): boolean {
  return err instanceof MwsError && err.code === 'upstream_needs_sign_in';
}

/** The SDK's "the user must authorize" (anywhere in the causes): the OAuth flow reached a redirect. */
function isUnauthorized(err: unknown): boolean {
  const sdk = loadedClientSdk();
  for (let e = err as { cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (sdk && e instanceof sdk.UnauthorizedError) return true;
  }
  return false;
}

/** A Streamable HTTP POST that an old HTTP+SSE server answers 400, 404 or 405. */
function notStreamable(err: unknown): boolean {
  const sdk = loadedClientSdk();
  for (
    let e = err as { cause?: unknown; status?: unknown; data?: { status?: unknown } } | undefined, i = 0;
    e && i < 5;
    e = e.cause as typeof e, i++
  ) {
    const status = sdk && e instanceof sdk.SdkHttpError ? e.status : e.data?.status;
    if (status === 400 || status === 404 || status === 405) return true;
  }
  return false;
}

function isStarting(err: unknown): boolean {
  return err instanceof MwsError && err.code === 'upstream_starting';
}

/** The upstream answered, and refused our credentials: access was revoked (or never granted). */
function isRefused(err: unknown): boolean {
  // Before the SDK is loaded no SDK error can exist.
  const sdk = loadedClientSdk();
  if (sdk && err instanceof sdk.UnauthorizedError) return true;
  const status =
    sdk && err instanceof sdk.SdkHttpError ? err.status : (err as { data?: { status?: unknown }; cause?: unknown })?.data?.status;
  if (status === 401 || status === 403) return true;
  const cause = (err as { cause?: unknown })?.cause;
  return cause !== undefined && cause !== err && isRefused(cause);
}

function isTransportFailure(err: unknown): boolean {
  const msg = errorMessage(err).toLowerCase();
  return /session|fetch failed|econnrefused|socket|closed|404/.test(msg);
}

export function withDeadline<T>(p: Promise<T>, ms: number, vendor: string, what: 'answer' | 'start' = 'answer'): Promise<T> {
  return within(p, ms, () =>
    what === 'start'
      ? new MwsError(
          'upstream_timeout',
          `Upstream "${vendor}" did not start within ${ms} ms. Check its command, or raise timeouts.connectMs.`,
          { vendor, ms },
        )
      : new MwsError('upstream_timeout', `Upstream "${vendor}" did not answer within ${ms} ms.`, { vendor, ms }),
  );
}
