// What the rest of the core knows about an upstream: its status, era and tools, never its transport.
import type { CallToolResult, ClientCapabilities, ServerCapabilities, Tool } from '@modelcontextprotocol/client';

/**
 * `starting`: a first start (or restart) is under way; `down`: the last start or the connection
 * failed, and it is retried with backoff; `revoked`: the upstream refuses our credentials
 * (HTTP 401/403), so its tools leave every set; `needs-value`: its config names a value the user has
 * not given yet (`${input:…}`, an unset variable, a secret not in the store) — listed in `needs`, and
 * it is not started (nor retried) until they are given; `off`: turned off in the config (`enabled: false`),
 * not started, its tools out of every list and search until it is turned on; `needs-sign-in`: an OAuth
 * server waits for the user to sign in (or in again): its last-good tools stay listed, and a call is
 * answered with how to sign in.
 */
export type UpstreamStatus = 'starting' | 'up' | 'down' | 'revoked' | 'needs-value' | 'off' | 'needs-sign-in';
export type UpstreamKind = 'http' | 'stdio' | 'builtin';

export type UpstreamInfo = {
  vendor: string;
  kind: UpstreamKind;
  status: UpstreamStatus;
  /** The protocol revision negotiated with it, when connected. */
  era: string | undefined;
  /** Why it is not serving, with the last lines of its stderr when it has some. */
  lastError: string | undefined;
  /** The last lines the server printed on stderr (stdio), when it is not up. */
  stderr?: string[];
  /** What the user must give before it can start (status `needs-value`): names `mws upstream set` takes. */
  needs?: string[];
  /** OAuth, for a server that asked us to sign in: signed in (as whom, when it said), or a link waiting. */
  auth?: {
    signedIn: boolean;
    account?: string;
    waiting: boolean;
    /** When the access token expires (ISO), when the server said; `refreshable`: it is renewed then without asking the user. */
    expiresAt?: string;
    refreshable?: boolean;
    /** It was signed in and the server stopped taking it (revoked, refresh expired): sign in again. */
    lost?: boolean;
  };
};

/** What a sign-in request led to: already signed in, a link to open, or no sign-in needed. */
export type SignInResult = { vendor: string; status: 'signed-in' | 'waiting' | 'not-needed'; url?: string };

/**
 * The downstream client whose request caused an upstream call: progress, log messages and the
 * upstream's server→client requests (sampling, elicitation, roots) go back to it.
 */
export type DownstreamPeer = {
  /** The caller's progress token, when it asked for progress. */
  progressToken?: string | number;
  /**
   * The caller speaks 2026-07-28: a server asks it for input in an `input_required` result, never with
   * a request. An upstream's input_required answer is then passed to it as is.
   */
  modern: boolean;
  /** A 2026-07-28 retry round: the caller's answers to an earlier input_required result, passed upstream. */
  retry?: { inputResponses?: Record<string, unknown>; requestState?: string };
  /** What the caller declared it can do (sampling, elicitation, roots). */
  capabilities: ClientCapabilities | undefined;
  /**
   * The caller cannot be reached during the call (the fast path answers with one JSON body): an
   * upstream's request or log message goes to another call in flight that can take it.
   */
  passive?: boolean;
  notify(notification: { method: string; params?: Record<string, unknown> }): Promise<void>;
  /** Sends a request to the caller; rejects when its era or transport cannot carry one. */
  request(request: { method: string; params?: Record<string, unknown> }): Promise<Record<string, unknown>>;
};

export type CallOptions = { timeoutMs: number; signal?: AbortSignal; peer?: DownstreamPeer };

export interface Upstream {
  readonly vendor: string;
  info(): UpstreamInfo;
  /** What the upstream said it serves (resources, prompts, completions, logging), once connected. */
  capabilities?(): ServerCapabilities | undefined;
  /** Lists tools within `budgetMs`, connecting (or re-opening an expired session) first when needed. */
  listTools(budgetMs: number): Promise<Tool[]>;
  /** Calls a tool once. Never retried: a call may have side effects. */
  callTool(name: string, args: Record<string, unknown> | undefined, opts: CallOptions): Promise<CallToolResult>;
  /** Forwards any other request (resources/*, prompts/*, completion/complete, logging/setLevel) as it is. */
  request?(method: string, params: Record<string, unknown> | undefined, opts: CallOptions): Promise<Record<string, unknown>>;
  close(): Promise<void>;
  /** Starts (or finds) a sign-in for an OAuth upstream. */
  signIn?(): Promise<SignInResult>;
  /** Signs out: tokens revoked where the server supports it, and forgotten. */
  signOut?(): Promise<{ revoked: boolean }>;
  /** Forgets tokens and registration without asking the server, and starts a new sign-in. */
  resetSignIn?(): Promise<SignInResult>;
}

/** An upstream as status views show it: its info, how many tools it lists, and where they came from. */
export type UpstreamStatusView = UpstreamInfo & { toolCount: number; source: 'live' | 'file' | 'none' };
