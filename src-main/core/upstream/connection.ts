// One upstream behind one SDK client: starts it within its own (long) start deadline, keeps starting
// in the background when a list cannot wait, retries a down upstream with backoff, keeps the last
// lines of a stdio server's stderr, and forwards what a downstream call brings with it (progress,
// server→client requests) through the DownstreamPeer of the call that caused it.
import type { Client, CallToolResult, ServerCapabilities, Tool } from '@modelcontextprotocol/client';
import { clientSdk } from './clientSdk.js';
import type { UpstreamConfig } from '../config/schema.js';
import { MwsError, errorMessage } from '../errors.js';
import type { Logger } from '../log.js';
import { buildTransport, upstreamFetch, type BuiltTransport } from './transports.js';
import { RESTART_RESET_AFTER_MS } from './backoff.js';
import { RetrySchedule } from './retrySchedule.js';
import { DownLog } from './downLog.js';
import { StderrTail } from './stderrTail.js';
import type { UpstreamJournal } from './journal.js';
import { PeerRouter } from './peers.js';
import { listAllTools } from './toolList.js';
import { forwardRequest } from './forwardRequest.js';
import { DirectLane, sharedRequestIds } from './directLane.js';
import { responsesAfterNotifications, upstreamClient } from './upstreamClient.js';
import type { CallOptions, SignInResult, Upstream, UpstreamInfo, UpstreamStatus } from './types.js';
import type { ResolveParts } from '../secrets/refs.js';
import { ConnectionValues } from './connectionValues.js';
import type { UpstreamAuth } from './oauth/upstreamAuth.js';
import { ConnectionSignIn, type SignInHost } from './connectionSignIn.js';
import { MODERN_REVISION } from '../protocol.js';
import { within } from '../deadline.js';
import { Rerun } from '../serial.js';
import {
  cfgUrl,
  failedLine,
  fallbackLine,
  refusedAccess,
  failedStatus,
  isSignIn,
  isStarting,
  isTransportFailure,
  startFallback,
  withDeadline,
} from './connectErrors.js';

export { LIST_CHANGED_DEBOUNCE_MS } from './upstreamClient.js';
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

type Live = { client: Client; built: BuiltTransport; connectedAt: number; lane: DirectLane | undefined };

export class UpstreamConnection implements Upstream {
  readonly vendor: string;
  private live: Live | undefined;
  private connecting: Promise<Live> | undefined;
  private connectStartedAt = 0;
  private status: UpstreamStatus = 'starting';
  private lastError: string | undefined;
  private closed = false;
  private readonly retry = new RetrySchedule();
  /** A list gave up waiting for the start: say so (onUp) when the upstream comes up. */
  private listWaiting = false;
  private readonly stderr = new StderrTail();
  /** Logs a down upstream when the reason changes and then ever more rarely, not on every retry. */
  private readonly downLog = new DownLog();
  private readonly peers = new PeerRouter();
  /** The revision a server named when it refused our 2025 opening. */
  private pinnedEra: string | undefined;
  private readonly values: ConnectionValues;
  /** The server did not take Streamable HTTP at connect: it is reached over the old HTTP+SSE transport. */
  private sse: boolean;
  private readonly signIns: ConnectionSignIn;

  constructor(private readonly opts: ConnectionOptions) {
    this.vendor = opts.vendor;
    this.sse = opts.config.kind === 'http' && opts.config.transport === 'sse';
    this.values = new ConnectionValues(opts.vendor, opts.config, opts.values);
    this.signIns = new ConnectionSignIn(opts.vendor, opts.auth, this.signInHost(), opts.log, opts.journal);
  }

  info(): UpstreamInfo {
    const tail = this.status === 'up' ? [] : this.stderr.lines().map((l) => this.values.mask(l));
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
      ...(this.status === 'needs-value' ? { needs: this.values.needs() } : {}),
      ...this.signIns.info(),
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
      const first = this.values.scrub(await this.signIns.needed(caught, this.live?.built.finishesAuth));
      if (this.closed || isStarting(first) || isSignIn(first)) throw first;
      // A failed list on an open connection is most often an expired 2025 session or a restarted
      // server: re-open once within the same budget before giving up.
      if (this.live && Date.now() < deadline) {
        await this.drop();
        try {
          return await this.listOnce(remaining);
        } catch (caught) {
          const second = this.values.scrub(caught);
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
    if (!this.live && this.status === 'needs-sign-in') throw this.signIns.error();
    // An open connection is used as is: no deadline timer on the hot path.
    const live = this.live ?? (await this.waitForStart(opts.timeoutMs));
    const release = opts.peer ? this.peers.enter(opts.peer) : undefined;
    try {
      return await forwardRequest(live.client, method, params, opts, live.lane);
    } catch (caught) {
      // Refused mid-connection (an expired grant, a step-up to more scopes): a sign-in link now waits.
      const err = await this.signIns.needed(caught, this.live?.built.finishesAuth);
      if (isSignIn(err)) throw err;
      // The call is not retried, but a broken session is dropped so the next list re-opens it.
      if (isTransportFailure(err)) await this.drop();
      throw this.values.scrub(err);
    } finally {
      release?.();
    }
  }

  signIn(): Promise<SignInResult> {
    return this.signIns.signIn();
  }

  /** Forgets the sign-in and the registration (nothing asked of the server) and starts a new sign-in. */
  resetSignIn(): Promise<SignInResult> {
    return this.signIns.reset();
  }

  signOut(): Promise<{ revoked: boolean }> {
    const url = cfgUrl(this.opts.config);
    return this.signIns.signOut(url ? upstreamFetch(url, { maxResultBytes: this.opts.maxResultBytes }, this.onBreach) : undefined);
  }

  /** The connection as its sign-in sees it (connectionSignIn.ts). */
  private signInHost(): SignInHost {
    return {
      status: () => this.status,
      isUp: () => this.live !== undefined && this.status === 'up',
      awaitSignIn: async (sentence) => {
        await this.drop();
        this.retry.cancel();
        this.status = 'needs-sign-in';
        this.lastError = sentence;
        this.opts.onDown?.();
      },
      connectNow: async () => {
        this.retry.cancel();
        await this.ensure();
        this.opts.onUp();
      },
      reopen: () => {
        if (this.closed) return;
        this.status = 'starting';
        this.lastError = undefined;
        void this.drop().then(() =>
          this.ensure().then(
            () => this.opts.onUp(),
            () => {},
          ),
        );
      },
      drop: () => this.drop(),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.retry.cancel();
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
    if (!this.live && this.status === 'needs-sign-in') throw this.signIns.error();
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

  /** Lists again after tools/list_changed; changes that arrive meanwhile are covered by one more list. */
  private readonly relistOnChange = new Rerun(async () => {
    const live = this.live;
    if (!live || this.closed) return;
    const deadline = Date.now() + LIST_CHANGED_RELIST_MS;
    try {
      const { tools } = await listAllTools(live.client, this.vendor, () => Math.max(1, deadline - Date.now()));
      if (!this.closed) this.opts.onToolsChanged(tools);
    } catch (err) {
      if (!this.closed) this.opts.log.warn(`upstream "${this.vendor}" said its tools changed but did not list them: ${errorMessage(err)}`);
    }
  });

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
      this.retry.cancel();
      this.connectStartedAt = this.opts.now();
      // A retry of a down upstream stays "down" (with its reason) until it is up again.
      if (this.status !== 'up' && this.status !== 'down' && this.status !== 'needs-value') this.status = 'starting';
      this.connecting = this.connect().then(
        (live) => {
          this.connecting = undefined;
          this.retry.reset();
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
    const sdk = await clientSdk();
    // References are read first, also for a transport given by a test: a value still missing stops here.
    const config = await this.values.resolve();
    // A sign-in saved by an earlier run counts as signed in until the server refuses it: then it was lost.
    await this.signIns.load(true);
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
      this.opts.journal?.stderr(this.values.maskChunk(chunk));
    });
    const client = upstreamClient(sdk.Client, {
      name: this.opts.clientName,
      // Builtin upstreams run in this process on the same SDK, and stdio servers speak the 2025
      // protocol or answer initialize with the versions they speak: neither needs a probe (for
      // stdio, a probe would spawn the server twice). HTTP upstreams are probed for 2026-07-28.
      era: this.pinnedEra ? { pin: this.pinnedEra } : this.opts.config.kind === 'http' && !this.sse ? 'auto' : 'legacy',
      probeMs: this.opts.connectMs,
      onToolsChanged: () => this.relistOnChange.ask(),
      onNotification: (method, params) => this.opts.onNotification?.(method, params),
    });
    this.peers.install(client, this.vendor);
    this.startingWith = built;
    try {
      if (this.closed) throw new MwsError('upstream_unavailable', `Upstream "${this.vendor}" is shut down.`);
      await withDeadline(client.connect(built.transport, { timeout: this.opts.connectMs }), this.opts.connectMs, this.vendor, 'start');
      if (this.closed) throw new MwsError('upstream_unavailable', `Upstream "${this.vendor}" is shut down.`);
    } catch (caught) {
      if (this.startingWith === built) this.startingWith = undefined;
      built.dispose();
      await client.close().catch(() => {});
      const err = await this.signIns.needed(caught, built.finishesAuth);
      if (isSignIn(err)) throw err;
      const next = startFallback(caught, err, {
        config: this.opts.config,
        issuerChecked: this.opts.auth !== undefined && !this.opts.auth.skipIssuerCheck,
        sse: this.sse,
        pinnedEra: this.pinnedEra,
        refusedWith: built.lastServerStatus?.(),
      });
      if (next?.kind === 'refused') throw refusedAccess(this.vendor, next.status, err);
      if (next) {
        this.opts.log.warn(fallbackLine(this.vendor, next, caught));
        if (next.kind === 'no-issuer-check') this.opts.auth!.skipIssuerCheck = true;
        if (next.kind === 'modern') this.pinnedEra = MODERN_REVISION;
        if (next.kind !== 'sse') return this.connect();
        this.sse = true;
        return this.connect().catch((sseErr: unknown) => {
          this.sse = false;
          throw sseErr;
        });
      }
      throw err;
    }
    this.startingWith = undefined;
    responsesAfterNotifications(built.transport);
    const era = client.getNegotiatedProtocolVersion();
    // A stdio upstream in the 2025 era takes its tools/call past the SDK's request path (directLane.ts).
    const ids = sharedRequestIds(client);
    const lane =
      ids && this.opts.config.kind === 'stdio' && !(era !== undefined && era >= MODERN_REVISION)
        ? new DirectLane(built.transport, sdk, ids)
        : undefined;
    const live: Live = { client, built, connectedAt: this.opts.now(), lane };
    client.onclose = () => this.onClosed(live);
    this.live = live;
    this.journaled.clear();
    this.opts.journal?.event(`connected (${era ?? 'protocol unknown'})`);
    // Connected is up: a call may come before the next list does.
    this.status = 'up';
    this.lastError = undefined;
    await this.signIns.load(false);
    return live;
  }

  /** `text` with the values read from references masked (an upstream's error may quote its own key). */
  maskSecrets(text: string): string {
    return this.values.mask(text);
  }

  private onClosed(live: Live): void {
    if (this.live !== live) return;
    this.live = undefined;
    if (this.closed) return;
    this.markDown(new Error('the connection closed'));
    if (this.opts.config.kind !== 'stdio') return;
    // A stdio child died: bring it back with backoff.
    if (this.opts.now() - live.connectedAt > RESTART_RESET_AFTER_MS) this.retry.reset();
    this.opts.log.warn(`upstream "${this.vendor}" exited.`);
    this.opts.journal?.event('the process exited');
    this.scheduleRetry();
  }

  /** Tries again later, with backoff; a success tells the catalog (onUp), which lists it again. */
  private scheduleRetry(): void {
    // Waiting for a value or a sign-in, there is nothing to retry: giving it reconnects.
    if (this.closed || this.retry.waiting || this.status === 'revoked' || this.status === 'needs-value' || this.status === 'needs-sign-in')
      return;
    const delay = this.retry.next(() => {
      if (this.closed || this.live || this.connecting) return;
      this.ensure().then(
        () => this.opts.onUp(),
        () => {},
      );
    });
    this.journalOnce(`retrying in ${Math.round(delay / 100) / 10} s`);
    const line = this.downLog.failed(this.vendor, this.lastError ?? 'unknown reason', this.opts.config, delay);
    if (line) this.opts.log.warn(line);
  }

  private markDown(err: unknown): void {
    this.status = failedStatus(err);
    this.lastError = this.values.mask(errorMessage(err));
    this.journalOnce(failedLine(this.status, this.lastError, this.opts.config));
  }

  /** A read from the server or its sign-in server stopped at a bound (boundedFetch.ts): said in its log. */
  private readonly onBreach = (sentence: string): void => {
    this.opts.log.warn(`upstream "${this.vendor}": ${sentence}`);
    this.opts.journal?.event(sentence);
  };

  /** Lines already in the log since the last connect: a retry adds nothing new. */
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
