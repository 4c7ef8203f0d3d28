// One upstream behind one SDK client: connects with era auto-detection, re-opens what expired,
// restarts a dead stdio child with backoff, and reports tool-list changes.
import { Client, SdkHttpError, UnauthorizedError, type CallToolResult, type Tool } from '@modelcontextprotocol/client';
import type { UpstreamConfig } from '../config/schema.js';
import { MwsError, errorMessage } from '../errors.js';
import type { Logger } from '../log.js';
import { buildTransport, type BuiltTransport } from './transports.js';
import { RESTART_RESET_AFTER_MS, restartDelayMs } from './backoff.js';
import type { CallOptions, Upstream, UpstreamInfo, UpstreamStatus } from './types.js';

/** The SDK's debounce of an upstream's tools/list_changed before it re-lists (its default is 300 ms). */
export const LIST_CHANGED_DEBOUNCE_MS = 30;
/** Pages of a paginated tools/list followed (the SDK stops at 64): 20,000 tools in pages of 10 fit. */
export const LIST_MAX_PAGES = 10_000;

export type ConnectionOptions = {
  vendor: string;
  config: UpstreamConfig;
  log: Logger;
  clientName: string;
  /** Called with the upstream's new tool list when it announces a change. */
  onToolsChanged: (tools: Tool[]) => void;
  /** Called when a stdio child died and came back, so the catalog can be re-listed. */
  onRestarted: () => void;
  now: () => number;
};

type Live = { client: Client; built: BuiltTransport; connectedAt: number };

/**
 * A proxy forwards the upstream's result as it is and leaves judging it to the client, so results
 * are not parsed against the result schema here (callTool() would, and costs ~15% of a stdio call).
 */
const PASS_THROUGH = { '~standard': { version: 1 as const, vendor: 'mcp-working-set', validate: (value: unknown) => ({ value }) } };

export class UpstreamConnection implements Upstream {
  readonly vendor: string;
  private live: Live | undefined;
  private connecting: Promise<Live> | undefined;
  private status: UpstreamStatus = 'connecting';
  private lastError: string | undefined;
  private closed = false;
  private restartAttempt = 0;
  private restartTimer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: ConnectionOptions) {
    this.vendor = opts.vendor;
  }

  info(): UpstreamInfo {
    return {
      vendor: this.vendor,
      kind: this.opts.config.kind,
      status: this.status,
      era: this.live?.client.getNegotiatedProtocolVersion(),
      lastError: this.lastError,
    };
  }

  async listTools(budgetMs: number): Promise<Tool[]> {
    const deadline = Date.now() + budgetMs;
    const remaining = () => Math.max(1, deadline - Date.now());
    try {
      return await withDeadline(this.listOnce(remaining), remaining(), this.vendor);
    } catch (first) {
      if (this.closed) throw first;
      // A failed list on an open connection is most often an expired 2025 session or a restarted
      // server: re-open once within the same budget before giving up.
      if (this.live && Date.now() < deadline) {
        await this.drop();
        try {
          return await withDeadline(this.listOnce(remaining), remaining(), this.vendor);
        } catch (second) {
          this.markDown(second);
          throw second;
        }
      }
      this.markDown(first);
      throw first;
    }
  }

  async callTool(name: string, args: Record<string, unknown> | undefined, opts: CallOptions): Promise<CallToolResult> {
    // An open connection is used as is: no deadline timer on the hot path.
    const live = this.live ?? (await withDeadline(this.ensure(opts.timeoutMs), opts.timeoutMs, this.vendor));
    try {
      const result = await live.client.request(
        { method: 'tools/call', params: { name, ...(args !== undefined ? { arguments: args } : {}) } },
        PASS_THROUGH,
        { timeout: opts.timeoutMs, ...(opts.signal ? { signal: opts.signal } : {}) },
      );
      return result as CallToolResult;
    } catch (err) {
      // The call is not retried, but a broken session is dropped so the next list re-opens it.
      if (isTransportFailure(err)) await this.drop();
      throw err;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.restartTimer);
    await this.drop();
  }

  private async listOnce(remaining: () => number): Promise<Tool[]> {
    const live = await this.ensure(remaining());
    const { tools } = await live.client.listTools(undefined, { timeout: remaining(), cache: 'bypass' } as never);
    this.status = 'up';
    this.lastError = undefined;
    return tools;
  }

  private ensure(timeoutMs: number): Promise<Live> {
    if (this.live) return Promise.resolve(this.live);
    if (this.closed) return Promise.reject(new MwsError('upstream_unavailable', `Upstream "${this.vendor}" is shut down.`));
    this.connecting ??= this.connect(timeoutMs).finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connect(timeoutMs: number): Promise<Live> {
    this.status = this.status === 'up' ? 'up' : 'connecting';
    const built = await buildTransport(this.opts.config);
    built.stderr?.on('data', () => {
      // Upstream chatter on stderr is not ours to print; draining it keeps the child from blocking.
    });
    const client = new Client(
      { name: this.opts.clientName, version: '0.1.0' },
      {
        // Builtin upstreams run in this process on the same SDK: no probe needed.
        listMaxPages: LIST_MAX_PAGES,
        versionNegotiation: { mode: this.opts.config.kind === 'builtin' ? 'legacy' : 'auto', probe: { timeoutMs } },
        listChanged: {
          tools: {
            // A burst of notifications still coalesces; clients hear of a change within tens of ms, not 300.
            debounceMs: LIST_CHANGED_DEBOUNCE_MS,
            onChanged: (error, tools) => {
              if (!error && tools) this.opts.onToolsChanged(tools);
            },
          },
        },
      },
    );
    try {
      await client.connect(built.transport, { timeout: timeoutMs });
    } catch (err) {
      built.dispose();
      await client.close().catch(() => {});
      throw err;
    }
    const live: Live = { client, built, connectedAt: this.opts.now() };
    client.onclose = () => this.onClosed(live);
    this.live = live;
    // Connected is up: a call may come before the next list does.
    this.status = 'up';
    this.lastError = undefined;
    return live;
  }

  private onClosed(live: Live): void {
    if (this.live !== live) return;
    this.live = undefined;
    if (this.closed) return;
    this.markDown(new Error('the connection closed'));
    if (this.opts.config.kind !== 'stdio') return;
    // A stdio child died: bring it back with backoff.
    if (this.opts.now() - live.connectedAt > RESTART_RESET_AFTER_MS) this.restartAttempt = 0;
    const delay = restartDelayMs(this.restartAttempt++);
    this.opts.log.warn(`upstream "${this.vendor}" exited; restarting in ${delay} ms.`);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (!this.closed) this.opts.onRestarted();
    }, delay);
    this.restartTimer.unref();
  }

  private markDown(err: unknown): void {
    this.status = isRefused(err) ? 'revoked' : 'down';
    this.lastError = errorMessage(err);
  }

  private async drop(): Promise<void> {
    const live = this.live;
    this.live = undefined;
    if (!live) return;
    live.built.dispose();
    await live.client.close().catch(() => {});
  }
}

/** The upstream answered, and refused our credentials: access was revoked (or never granted). */
function isRefused(err: unknown): boolean {
  if (err instanceof UnauthorizedError) return true;
  const status = err instanceof SdkHttpError ? err.status : (err as { data?: { status?: unknown }; cause?: unknown })?.data?.status;
  if (status === 401 || status === 403) return true;
  const cause = (err as { cause?: unknown })?.cause;
  return cause !== undefined && cause !== err && isRefused(cause);
}

function isTransportFailure(err: unknown): boolean {
  const msg = errorMessage(err).toLowerCase();
  return /session|fetch failed|econnrefused|socket|closed|404/.test(msg);
}

export function withDeadline<T>(p: Promise<T>, ms: number, vendor: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new MwsError('upstream_timeout', `Upstream "${vendor}" did not answer within ${ms} ms.`, { vendor, ms })),
      ms,
    );
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
