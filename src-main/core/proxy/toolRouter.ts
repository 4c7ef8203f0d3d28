// Decides what each agent lists and where each call goes: the working set over the toolbox, the
// meta-tools (core/metaTools/, call_tool included), argument checks, forwarding, and the call log.
import { statusWord, waitsForUser } from '../../shared/statusWords.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Config } from '../config/schema.js';
import { MwsError, errorMessage } from '../errors.js';
import type { Clock } from '../clock.js';
import type { ToolboxCatalog } from '../toolbox/merge.js';
import type { ToolEntry } from '../toolbox/toolbox.js';
import type { CallRecorder } from '../usage/callLog.js';
import { ArgumentValidator, argShape } from './argValidation.js';
import { CallsInFlight } from './inFlight.js';
import type { AgentLastSeen } from './lastSeen.js';
import { splitExposedName } from '../toolbox/names.js';
import { metaTools } from '../metaTools/definitions.js';
import { isMetaTool, type MetaToolName } from '../toolbox/reservedNames.js';
import { stripProtocolMeta } from './results.js';
import { toolError } from '../toolResults.js';
import { callToolHandler } from '../metaTools/callTool.js';
import type { AgentRuntime } from './runtime.js';
import type { CallContext, MetaHandler } from '../metaTools/handler.js';
import { recordedContent } from './recorded.js';
import type { Logger } from '../log.js';
import { noToolNamed } from '../toolbox/notFound.js';
import { reasonLine, resultReason } from '../usage/reason.js';

/** A name the agent sent is kept in the log up to this length (a name no upstream lists is the agent's text). */
const LOGGED_NAME_MAX_CHARS = 200;

/** What the router asks before a call runs, and tells after one succeeded. */
export type CallHooks = {
  /** Undefined when the call may run, else the answer to give instead (approvals). */
  beforeCall(
    agentId: string,
    entry: ToolEntry,
    args: Record<string, unknown> | undefined,
    signal?: AbortSignal,
    progress?: CallContext['progress'],
  ): Promise<CallToolResult | undefined>;
  /** A successful call: restarts the tool's idle clock (`ctx`: the connection it came from, for learning). */
  used(agentId: string, tool: string, ts: number, ctx?: CallContext): void;
  /** What the approval rule says of a call now, without waiting (dryRun): run, ask, or refuse with a sentence. */
  verdict?(agentId: string, entry: ToolEntry): { kind: 'run' } | { kind: 'ask' } | { kind: 'refuse'; message: string };
};

export type ToolRouterOptions = {
  config: Config;
  catalog: ToolboxCatalog;
  callLog: CallRecorder;
  clock: Clock;
  /** What an agent lists after the meta-tools, in order: the listing rule (workingset/listing.ts). */
  listing: (agentId: string) => ToolEntry[];
  ready: Promise<void>;
  hooks?: CallHooks;
  /** Names close to an unknown one, for "did you mean". */
  closeNames?: (name: string) => string[];
  /** Where calls in flight are counted (the working sets read it too). */
  inFlight?: CallsInFlight;
  /** Where each agent's last request is noted (the scheduled cycle waits for quiet agents). */
  lastSeen?: AgentLastSeen;
  /** Where an upstream's unusable answer is told (too deep to pass on). */
  log?: Logger;
};

/** Errors of a state change that was not saved: told to the model as a tool error with the code. */
const SAVE_FAILURES = new Set<string>(['disk_full', 'state_unwritable', 'unavailable']);

type Listing = { tools: Tool[]; signature: string; entries: ToolEntry[] };

export class ToolRouter implements AgentRuntime {
  private readonly validator = new ArgumentValidator();
  private readonly meta: Tool[];
  private readonly listings = new Map<string, Listing>();
  /**
   * Listings read for someone else (the report) of agents with no kept listing, apart from `listings`
   * so that no client is compared with them; used while the sets answer the same entries, and
   * forgotten at a recompute (the description setting). Deciding 100 agents' listings again was ~20 ms
   * of each report at 5,000 tools.
   */
  private readonly readListings = new Map<string, Listing>();
  private readonly handlers = new Map<MetaToolName, MetaHandler>();
  private readonly inFlight: CallsInFlight;

  constructor(private readonly opts: ToolRouterOptions) {
    this.meta = metaTools(opts.config.backendHints);
    this.inFlight = opts.inFlight ?? new CallsInFlight();
    this.handlers.set(
      'call_tool',
      callToolHandler({
        resolve: (name) => this.resolveOrWait(name),
        unknownToolMessage: (name) => this.unknownToolMessage(name),
        check: (entry, args) => this.validator.check(entry, args),
        verdict: (agentId, entry) => this.opts.hooks?.verdict?.(agentId, entry) ?? { kind: 'run' },
        forward: (agentId, entry, args, ctx) => this.forward(agentId, entry, args, ctx),
        refused: (agentId, name, reason, ctx) => this.logRefused(agentId, name, reason, ctx),
      }),
    );
  }

  ready(): Promise<void> {
    return this.opts.ready;
  }

  hasAgent(agentId: string): boolean {
    return this.opts.config.agents.some((a) => a.id === agentId);
  }

  setMetaHandler(name: Exclude<MetaToolName, 'call_tool'>, handler: MetaHandler): void {
    this.handlers.set(name, handler);
  }

  instructions(agentId: string): string {
    void agentId;
    return (
      'Your tool list holds the tools you use most. Every other tool is one search_tools away: search first, ' +
      'then call_tool (or promote a tool you will keep using). A demoted tool is never deleted.'
    );
  }

  /** Agents with a call in flight are skipped by the sweep. */
  callsInFlight(agentId: string): number {
    return this.inFlight.count(agentId);
  }

  /**
   * The working set entries an agent lists, in working-set order, limited to what the upstreams list:
   * those of its listing as last computed (every search marks its hits listed or not from it; deciding
   * a 500-tool listing again took ~0.6 ms of each search at 5,000 tools), or decided now when the
   * agent has not listed.
   */
  workingSetEntries(agentId: string): ToolEntry[] {
    // Not cached here when the agent has not listed: a listing read during a set's save (changed in
    // memory, not yet saved) would then be the one its change is compared with, and go untold.
    return this.listings.get(agentId)?.entries ?? this.opts.listing(agentId);
  }

  listTools(agentId: string): Tool[] {
    this.opts.lastSeen?.touch(agentId, this.opts.clock.now());
    this.opts.catalog.refreshIfStale();
    return this.listing(agentId).tools;
  }

  /**
   * What the agent lists now, read for someone else (the report): not a request of the agent's, so
   * its quiet clock does not move. A window left open on the report would otherwise keep every agent
   * "active" and hold the scheduled cycle's changes to their lists (workingset/quiet.ts).
   */
  listedFor(agentId: string): Tool[] {
    const kept = this.listings.get(agentId);
    if (kept) return kept.tools;
    // The sets answer the same entries until the agent's names or the toolbox change: a listing read
    // from them before is kept as long.
    const entries = this.opts.listing(agentId);
    const hit = this.readListings.get(agentId);
    if (hit?.entries === entries) return hit.tools;
    const read = this.listingOf(entries);
    this.readListings.set(agentId, read);
    return read.tools;
  }

  /**
   * Recomputes every agent's listing (`only`: just these agents', after a change to their sets alone).
   * Answers the agents whose listing differs, and apart those with no listing to compare with (a
   * client may hold a list from before a restart).
   */
  recompute(only?: readonly string[]): { changed: string[]; unknown: string[] } {
    const changed: string[] = [];
    const unknown: string[] = [];
    // A removed agent's listing goes with it: an app that runs for months sees agents come and go.
    const configured = new Set(this.opts.config.agents.map((a) => a.id));
    for (const id of this.listings.keys()) if (!configured.has(id)) this.listings.delete(id);
    for (const id of this.readListings.keys()) if (!configured.has(id) || !only || only.includes(id)) this.readListings.delete(id);
    for (const agent of this.opts.config.agents) {
      if (only && !only.includes(agent.id)) continue;
      const before = this.listings.get(agent.id)?.signature;
      this.listings.delete(agent.id);
      if (before === undefined) unknown.push(agent.id);
      else if (this.listing(agent.id).signature !== before) changed.push(agent.id);
    }
    return { changed, unknown };
  }

  async callTool(agentId: string, name: string, args: Record<string, unknown> | undefined, ctx: CallContext): Promise<CallToolResult> {
    this.opts.lastSeen?.touch(agentId, this.opts.clock.now());
    if (isMetaTool(name)) return this.callMeta(agentId, name, args ?? {}, ctx);
    const entry = await this.resolveOrWait(name);
    if (!entry) {
      const message = this.unknownToolMessage(name);
      this.logRefused(agentId, name, message, ctx);
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, message);
    }
    return this.forward(agentId, entry, args, ctx);
  }

  private async callMeta(agentId: string, name: MetaToolName, args: Record<string, unknown>, ctx: CallContext): Promise<CallToolResult> {
    const handler = this.handlers.get(name);
    if (!handler) return toolError(`${name} is not available in this version of Working Set yet.`);
    try {
      return await handler(agentId, args, ctx);
    } catch (err) {
      // A change that could not be saved (disk_full, the shared database away) is an answer the model
      // can relay, not -32603.
      if (err instanceof MwsError && SAVE_FAILURES.has(err.code)) {
        return { content: [{ type: 'text', text: `${err.code}: ${err.message}` }], structuredContent: { error: err.code }, isError: true };
      }
      throw err;
    }
  }

  private async forward(
    agentId: string,
    entry: ToolEntry,
    args: Record<string, unknown> | undefined,
    ctx: CallContext,
  ): Promise<CallToolResult> {
    // Checked before anything recursive (schema validation, serialization) walks the arguments; the
    // same walk counts their values for the validator (one walk of a 300,000-key object, not two).
    const shape = argShape(args, MAX_ARGUMENT_DEPTH);
    if (shape.tooDeep) {
      return this.refuse(
        agentId,
        entry,
        ctx,
        toolError(
          `The arguments for ${entry.name} are nested more than ${MAX_ARGUMENT_DEPTH} levels deep, more than Working Set forwards. Send them flatter.`,
        ),
      );
    }
    const problem = this.validator.check(entry, args, shape.values);
    if (problem) return this.refuse(agentId, entry, ctx, toolError(problem));
    const upstream = this.opts.catalog.upstream(entry.vendor);
    // Counted from here: a call waiting for approval is a call in flight, and the sweep skips its agent.
    this.inFlight.enter(agentId);
    let started: number | undefined;
    let ok = false;
    let answer: CallToolResult | undefined;
    /** Why it failed, when it did (the log's reason). */
    let failure: string | undefined;
    try {
      const refused = await this.opts.hooks?.beforeCall(agentId, entry, args, ctx.signal, ctx.progress);
      if (refused) return this.refuse(agentId, entry, ctx, refused);
      if (!upstream)
        throw new MwsError('upstream_unavailable', `The upstream "${entry.vendor}" of ${entry.name} is not configured any more.`);
      started = performance.now();
      const result = stripProtocolMeta(
        await upstream.callTool(entry.remoteName, args, {
          timeoutMs: this.opts.config.timeouts.callMs,
          ...(ctx.signal ? { signal: ctx.signal } : {}),
          ...(ctx.peer ? { peer: ctx.peer } : {}),
        }),
      );
      // Serializing the answer recurses: a result nested thousands of levels deep would fail there
      // with "Maximum call stack size exceeded" and nothing said of it.
      if (exceedsDepth(result, MAX_RESULT_DEPTH)) {
        this.opts.log?.warn(
          `upstream "${entry.vendor}" answered ${entry.name} with a result nested more than ${MAX_RESULT_DEPTH} levels deep; it was not passed on.`,
        );
        return toolError(
          `${entry.name} ran, but its upstream "${entry.vendor}" answered with a result nested more than ${MAX_RESULT_DEPTH} levels deep, more than Working Set passes on. The call may have had its effect; ask the upstream's maintainer for a flatter answer.`,
        );
      }
      ok = result.isError !== true;
      answer = result;
      if (ok) this.opts.hooks?.used(agentId, entry.name, this.opts.clock.now(), ctx);
      else failure = resultReason(result, `${entry.name} answered with an error and no text.`);
      return result;
    } catch (err) {
      const answerErr = asProtocolError(err, entry);
      failure = reasonLine(answerErr.message) || `${entry.name} failed.`;
      // Thrown before it reached the upstream (it is not configured any more): a refusal.
      if (started === undefined) this.logRefused(agentId, entry.name, failure, ctx, entry.vendor);
      throw answerErr;
    } finally {
      this.inFlight.leave(agentId);
      // A long call's end counts as activity too: its answer is what the model reads next.
      this.opts.lastSeen?.touch(agentId, this.opts.clock.now());
      // A call refused before it reached the upstream was never forwarded: it is not in the call log.
      if (started !== undefined) {
        // On a shared store the answer waits for the record's commit (never for an outage): a replica
        // killed right after answering has recorded what it answered.
        const committed = this.opts.callLog.call({
          ts: new Date(this.opts.clock.now()).toISOString(),
          agent: agentId,
          tool: entry.name,
          via: ctx.via,
          ok,
          ms: Math.round((performance.now() - started) * 100) / 100,
          client: ctx.client,
          session: ctx.session ?? null,
          upstream: entry.vendor,
          ...(ok || failure === undefined ? {} : { reason: failure }),
          // Arguments and results only when the user asked for them (activity.recordArguments).
          ...(this.opts.config.activity.recordArguments ? recordedContent(args, answer) : {}),
        });
        if (committed) await committed;
      }
    }
  }

  /** A call answered without running: logged with the answer's sentence as its reason, then answered. */
  private refuse(agentId: string, entry: ToolEntry, ctx: CallContext, answer: CallToolResult): CallToolResult {
    this.logRefused(agentId, entry.name, resultReason(answer, 'Refused before it ran.'), ctx, entry.vendor);
    return answer;
  }

  /** A call refused before it reached an upstream: in the activity log with why, never counted as use. */
  private logRefused(agentId: string, name: string, reason: string, ctx: CallContext, vendor?: string): void {
    this.opts.callLog.call({
      ts: new Date(this.opts.clock.now()).toISOString(),
      agent: agentId,
      tool: name.length > LOGGED_NAME_MAX_CHARS ? `${name.slice(0, LOGGED_NAME_MAX_CHARS)}…` : name,
      via: ctx.via,
      ok: false,
      ms: 0,
      client: ctx.client,
      session: ctx.session ?? null,
      ...(vendor ? { upstream: vendor } : {}),
      refused: true,
      reason: reasonLine(reason),
    });
  }

  /** An unknown name whose vendor prefix is an upstream still starting waits for its first list. */
  private async resolveOrWait(name: string): Promise<ToolEntry | undefined> {
    const found = this.opts.catalog.toolbox().resolve(name);
    if (found) return found;
    const { vendor } = splitExposedName(name);
    if (!vendor || !this.opts.config.prefixNames) return undefined;
    await this.opts.catalog.whenStarted(vendor, this.opts.config.timeouts.callMs);
    return this.opts.catalog.toolbox().resolve(name);
  }

  private unknownToolMessage(name: string): string {
    const near = this.opts.closeNames?.(name) ?? [];
    const { vendor } = splitExposedName(name);
    const up = vendor ? this.opts.catalog.statuses().find((s) => s.vendor === vendor) : undefined;
    const why =
      up && up.status !== 'up'
        ? `Its upstream "${vendor}" ${waitsForUser(up) ? '' : 'is '}${statusWord(up)}${up.lastError ? `: ${up.lastError}` : ''}.`
        : undefined;
    return noToolNamed(name, near, { ...(why ? { why } : {}), next: 'Use search_tools to find the right one.' });
  }

  /** The agent's listing, kept until recompute(): what its clients were sent, compared with at the next change. */
  private listing(agentId: string): Listing {
    const hit = this.listings.get(agentId);
    if (hit) return hit;
    const computed = this.computeListing(agentId);
    this.listings.set(agentId, computed);
    return computed;
  }

  private computeListing(agentId: string): Listing {
    return this.listingOf(this.opts.listing(agentId));
  }

  private listingOf(entries: ToolEntry[]): Listing {
    const toolbox = this.opts.catalog.toolbox();
    const tools = [...this.meta, ...entries.map((e) => toolbox.listed(e, this.opts.config.compactDescriptions))];
    return { tools, signature: entries.map((e) => `${e.name}:${e.hash}`).join('|'), entries };
  }
}

/** Deeper arguments are refused: real tool arguments are a few levels deep, and recursion has a floor. */
export const MAX_ARGUMENT_DEPTH = 64;
/** Deeper results are not passed on: JSON.stringify overflows the stack at ~5,000 levels; real results nest a few. */
export const MAX_RESULT_DEPTH = 512;

/**
 * Whether `v` nests objects/arrays deeper than `max`, walked without recursion. Keys are walked with
 * for…in rather than Object.values, which copies every value of a huge object first.
 */
export function exceedsDepth(v: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[v, 0]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (typeof x !== 'object' || x === null) continue;
    if (d >= max) return true;
    if (Array.isArray(x)) {
      for (const child of x) if (typeof child === 'object' && child !== null) stack.push([child, d + 1]);
    } else {
      for (const k in x) {
        const child = (x as Record<string, unknown>)[k];
        if (typeof child === 'object' && child !== null) stack.push([child, d + 1]);
      }
    }
  }
  return false;
}

/** Upstream JSON-RPC errors pass through with their code; our own failures get a sentence. */
function asProtocolError(err: unknown, entry: ToolEntry): Error {
  if (err instanceof ProtocolError) return err;
  // A RangeError (stack overflow, invalid length) is raised in this process, never by the upstream.
  if (err instanceof RangeError) {
    return new ProtocolError(
      ProtocolErrorCode.InternalError,
      `${entry.name} could not be run: Working Set itself failed while handling the call (${errorMessage(err)}); the upstream "${entry.vendor}" was not at fault.`,
    );
  }
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'number') return new ProtocolError(code, errorMessage(err));
  if (err instanceof MwsError && err.code === 'upstream_timeout') {
    return new ProtocolError(
      ProtocolErrorCode.InternalError,
      `${entry.name} did not finish in time: ${err.message} Try again later or raise timeouts.callMs.`,
    );
  }
  return new ProtocolError(
    ProtocolErrorCode.InternalError,
    `${entry.name} could not be run: the upstream "${entry.vendor}" failed (${errorMessage(err)}).`,
  );
}
