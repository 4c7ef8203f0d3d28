// The ControlApi declared once: each method's arguments (a zod schema, checked before the method runs
// on every path — HTTP, IPC, the tray, the CLI in or out of process) and its answer. The TypeScript
// interface, the method list, dispatch (envelope.ts) and the clients are derived from this table; the
// run functions live in the files named for what they do (methods.ts, settings.ts, approvals.ts, …),
// and the typecheck fails until every method here has one. The window imports its types from here
// only (`import type`: no runtime code reaches the page), and so does the CLI's HTTP client, which must
// not load the core. Values whose rules live in the config (a cap's range, a URL's form) are only typed
// here; the config schema refuses them with the field's own sentence when the edit is validated.
import { z } from 'zod';
import { VENDOR_PATTERN, VENDOR_RULE_WORDS } from '../../shared/vendorName.js';
import { isReservedName, RESERVED_NAME_WORDS } from '../../shared/reservedNames.js';
import type { SignInResult } from '../upstream/types.js';
import type { Decision, HistoryEntry } from '../workingset/types.js';
import type { GrantView, PendingView } from '../approvals/types.js';
import type { ImportResult, ImportSource } from '../import/types.js';
import type { ActivityEntry } from '../usage/activityTypes.js';
import type { CoreEvent } from './events.js';
import type { ErrorCode } from '../errors.js';
import type {
  AgentReport,
  AgentView,
  ClientConfigs,
  CycleView,
  LearnedWordsView,
  MemberRow,
  SearchView,
  SetChange,
  SettingsView,
  StatusView,
  UpstreamLogView,
  UpstreamRow,
  UpstreamValueSet,
} from './views.js';

const text = () => z.string();
const id = () => z.string().min(1);
const whole = () => z.number().int();
const args = <S extends z.ZodRawShape>(shape: S) => z.strictObject(shape);
const none = () => z.strictObject({});
const strings = () => z.record(z.string(), z.string());
const approvals = () => z.enum(['ask', 'allow', 'read-only']);
/**
 * An answer's type. Answers are built by the core's own code, so they are declared for the type
 * system (and the window's) rather than checked on the way out.
 */
const answer = <T>() => z.custom<T>();

/** An upstream's name as saved: it prefixes its tools (vendor__tool). */
export const VENDOR_SLUG = VENDOR_PATTERN;
const vendorSlug = () =>
  z
    .string()
    .regex(VENDOR_SLUG, { error: `must be a vendor slug: ${VENDOR_RULE_WORDS}` })
    .refine((v) => !isReservedName(v), { error: RESERVED_NAME_WORDS });
/** A new id (an agent's): not a name every object already has. */
const newId = () => id().refine((v) => !isReservedName(v), { error: RESERVED_NAME_WORDS });

const upstreamInput = z.union(
  [
    z.strictObject({ url: text(), headers: strings().optional(), bearerTokenEnvVar: text().optional() }),
    z.strictObject({
      command: text(),
      args: z.array(text()).optional(),
      env: strings().optional(),
      cwd: text().optional(),
      envFile: text().optional(),
    }),
  ],
  { error: 'must be an upstream: {"url": …} for an HTTP server, or {"command": …, "args": […]} for a stdio one' },
);

const agentFields = {
  name: text().optional(),
  cap: z.number().optional(),
  idleWindowDays: z.number().optional(),
  approvals: approvals().optional(),
};

/** An ISO time; Date.parse decides, as the sweep reads it. */
const isoTime = () => text().refine((s) => !Number.isNaN(Date.parse(s)), { error: 'must be an ISO time such as 2026-12-24T09:00:00Z' });

type MethodContract = { args: z.ZodType; result: z.ZodType };

/** Every control method: `{args, result}`. Adding a method is one entry here plus its run function. */
export const CONTROL_CONTRACT = {
  status: { args: none(), result: answer<StatusView>() },
  workingSet: { args: args({ agent: id() }), result: answer<MemberRow[]>() },
  history: { args: args({ agent: id(), limit: whole().min(1).optional() }), result: answer<HistoryEntry[]>() },
  promote: { args: args({ agent: id(), tool: id() }), result: answer<SetChange>() },
  demote: { args: args({ agent: id(), tool: id() }), result: answer<SetChange>() },
  /** Usage promotion and the sweep: the decision table, applied unless `dryRun`. */
  cycle: { args: args({ dryRun: z.boolean().optional(), agents: z.array(id()).optional() }), result: answer<CycleView>() },
  /** What the sweep would decide at `now` (ISO time), changing nothing. */
  sweepPreview: { args: args({ now: isoTime(), agents: z.array(id()).optional() }), result: answer<Decision[]>() },
  /** Calls waiting for the user, oldest first, of one agent or all. */
  pendingApprovals: { args: args({ agent: id().optional() }), result: answer<PendingView[]>() },
  /**
   * Answers waiting calls of a tool (or the one with `id`): allow and remember it for the agent (the
   * default), run them just this once (`once`), or deny them and withdraw any standing grant (`deny`).
   */
  approve: {
    args: args({ agent: id(), tool: id(), deny: z.boolean().optional(), once: z.boolean().optional(), id: text().optional() }),
    result: answer<{ decided: number; remembered: boolean; tool: string; withdrawn: boolean }>(),
  },
  /** The tools each agent may run without asking. */
  grants: { args: args({ agent: id().optional() }), result: answer<GrantView[]>() },
  /** An upstream's tools as the toolbox has them, with their kind and the agents that list each. */
  upstreamTools: {
    args: args({ vendor: id() }),
    result:
      answer<
        Array<{ name: string; description: string | null; kind: 'read-only' | 'write' | 'destructive'; agents: string[]; hidden: boolean }>
      >(),
  },
  /**
   * Hides one tool of an upstream from every agent and from search (kept in the config's `hiddenTools`),
   * or shows it again. `tool`: its name as listed (vendor__tool) or as the upstream gives it.
   */
  setToolHidden: {
    args: args({ vendor: id(), tool: id(), hidden: z.boolean() }),
    result: answer<{ vendor: string; tool: string; hidden: boolean; changed: boolean; hiddenTools: string[] }>(),
  },
  /** Withdraws a standing grant: the tool asks again on its next call. */
  revokeGrant: { args: args({ agent: id(), tool: id() }), result: answer<{ tool: string; revoked: boolean }>() },
  /**
   * The reply search_tools gives (`text`, what a model reads) and its hits as data, best first (`message`
   * when nothing matched); with `explain`, also which query word matched which field of each hit.
   */
  search: {
    args: args({ agent: id(), query: text().optional(), limit: whole().min(1).optional(), explain: z.boolean().optional() }),
    result: answer<SearchView>(),
  },
  /** The words each tool was learned for from search→call pairs (one tool, or the tools with most). */
  learnedWords: { args: args({ tool: id().optional(), agent: id().optional() }), result: answer<LearnedWordsView>() },
  /**
   * Forgets what was learned for a tool (every agent's pairs that led to it or away from it); with
   * `word`, only that word stops counting for the tool. `forgotten`: how many pairs changed.
   */
  // A learned word is at most 24 letters (learning.ts); 100 leaves room for a phrase, not a document.
  forgetLearned: {
    args: args({ tool: id(), word: id().max(100).optional() }),
    result: answer<{ tool: string; word?: string; forgotten: number }>(),
  },
  /** Each agent's report is frozen all the way down: it is kept and answered again to later callers (keptReports.ts). */
  report: { args: args({ agent: id().optional() }), result: answer<AgentReport[]>() },
  setDemotionPaused: { args: args({ paused: z.boolean() }), result: answer<{ paused: boolean }>() },
  setProxyPaused: { args: args({ paused: z.boolean() }), result: answer<{ paused: boolean }>() },
  createAgent: { args: args({ id: newId(), ...agentFields }), result: answer<AgentView>() },
  updateAgent: { args: args({ id: id(), ...agentFields }), result: answer<AgentView>() },
  deleteAgent: { args: args({ id: id() }), result: answer<{ deleted: string }>() },
  /** Pins or unpins a tool for one agent (the agent's `pins` in the config). */
  pin: { args: args({ agent: id(), tool: id(), pinned: z.boolean() }), result: answer<MemberRow[]>() },
  /** Ready-to-paste client configs; `masked`: an agent token shown as •••• (the window displays these). */
  clientConfigs: { args: args({ agent: id(), masked: z.boolean().optional() }), result: answer<ClientConfigs>() },
  upstreams: { args: none(), result: answer<UpstreamRow[]>() },
  /**
   * Adds an upstream, or replaces the one named `vendor`. `replace`: replaces the upstream saved under
   * that name; without it, a taken name is refused (upstream_exists).
   */
  saveUpstream: {
    args: args({ vendor: vendorSlug(), upstream: upstreamInput, leaveDemo: z.boolean().optional(), replace: z.boolean().optional() }),
    result: answer<UpstreamRow[]>(),
  },
  removeUpstream: { args: args({ vendor: id() }), result: answer<UpstreamRow[]>() },
  /** `vendor`: the saved upstream being edited, whose secrets stand in for masked values. */
  testUpstream: {
    args: args({ upstream: upstreamInput, vendor: text().optional() }),
    result: answer<{ ok: boolean; era: string | null; tools: string[]; error: string | null }>(),
  },
  settings: { args: none(), result: answer<SettingsView>() },
  updateSettings: {
    args: args({
      port: z.number().optional(),
      compactDescriptions: z.boolean().optional(),
      promote: z
        .strictObject({
          minSessions: z.number().optional(),
          minCalls: z.number().optional(),
          windowDays: z.number().optional(),
          pinDecayDays: z.number().optional(),
        })
        .optional(),
      desktop: z
        .strictObject({
          notifyDemotions: z.boolean().optional(),
          notifyUpstreams: z.boolean().optional(),
          notifyApprovals: z.boolean().optional(),
          startAtLogin: z.boolean().optional(),
          remote: z.string().max(500).optional(),
        })
        .optional(),
    }),
    result: answer<SettingsView>(),
  },
  /** A one-time link that opens the settings window in a browser (headless). */
  uiLink: { args: none(), result: answer<{ url: string }>() },
  /** Ends every settings-window session in a browser (and forgets unspent links); answers how many ended. */
  uiRevokeAll: { args: none(), result: answer<{ ended: number }>() },
  /** Generates a new bearer token for an agent, saves it in the config and answers it (shown once). */
  agentToken: { args: args({ agent: id() }), result: answer<{ agent: string; token: string; header: string }>() },
  /**
   * Gives an upstream a value it needs (an `${input:ID}`, a variable the process lacks) or a secret
   * header/env value, kept in the secret store (config.json gets a reference), and connects it again.
   * The answer never holds the value. An empty value would still leave the upstream waiting.
   */
  setUpstreamValue: {
    args: args({
      vendor: id(),
      key: id().max(200),
      value: z
        .string()
        .min(1)
        .max(64 * 1024),
    }),
    result: answer<UpstreamValueSet>(),
  },
  /** The names of the values the secret store holds (never the values). */
  secretNames: { args: none(), result: answer<{ names: string[] }>() },
  /** Moves plain-text secret header and env values of config.json into the secret store (references stay). */
  migrateSecrets: { args: none(), result: answer<{ moved: string[] }>() },
  /** Turns an upstream off (kept in the config as `enabled: false`, its tools out of every list and search) or on again. */
  setUpstreamEnabled: { args: args({ vendor: id(), enabled: z.boolean() }), result: answer<UpstreamRow[]>() },
  /** Restarts an upstream: a stdio server's process, an HTTP upstream's connection. */
  restartUpstream: { args: args({ vendor: id() }), result: answer<UpstreamRow[]>() },
  /** The last lines an upstream printed on stderr and its connection events, oldest first. */
  upstreamLog: { args: args({ vendor: id(), lines: whole().min(1).max(1000).optional() }), result: answer<UpstreamLogView>() },
  /** The latest calls (agent, tool, upstream, duration, ok), newest first. */
  activity: { args: args({ agent: id().optional(), limit: whole().min(1).max(1000).optional() }), result: answer<ActivityEntry[]>() },
  /** Other clients' config files on this machine (or the one named) and the servers in them; env and header values never leave the core. */
  importScan: {
    args: args({ from: text().optional(), file: text().optional(), projectDir: text().optional() }),
    result: answer<ImportSource[]>(),
  },
  /** Adds the named servers of one client file as upstreams (after a backup of the config) and answers the client edit. */
  importServers: {
    args: args({
      file: text(),
      names: z.array(text()).optional(),
      dryRun: z.boolean().optional(),
      writeClient: z.boolean().optional(),
      projectDir: text().optional(),
      agent: id().optional(),
      as: strings().optional(),
    }),
    result: answer<ImportResult>(),
  },
  /**
   * Signs in to an OAuth upstream: `waiting` with the authorization URL to open in a browser (it lands
   * on this instance's /oauth/callback), `signed-in` when it already is, `not-needed` when it asks for none.
   */
  signIn: { args: args({ vendor: id() }), result: answer<SignInResult>() },
  /** Signs out of an OAuth upstream: its tokens are revoked where the server supports it, and forgotten. */
  signOut: { args: args({ vendor: id() }), result: answer<{ vendor: string; revoked: boolean }>() },
  /** Forgets an OAuth upstream's tokens and client registration without asking the server, and starts a new sign-in. */
  resetSignIn: { args: args({ vendor: id() }), result: answer<SignInResult>() },
} satisfies Record<string, MethodContract>;

type Contract = typeof CONTROL_CONTRACT;
export type ControlMethod = keyof Contract;
/** What a caller passes (before the schema's defaults and transforms). */
export type ControlArgs<M extends ControlMethod> = z.input<Contract[M]['args']>;
/** What a method's run function receives: the arguments as the schema parsed them. */
export type ControlInput<M extends ControlMethod> = z.output<Contract[M]['args']>;
export type ControlResult<M extends ControlMethod> = z.output<Contract[M]['result']>;

/** The one interface the tray, the settings window and the CLI use to see and steer the core. */
export type ControlApi = { [M in ControlMethod]: (args: ControlArgs<M>) => Promise<ControlResult<M>> };
/** The run functions behind it, given arguments their schema has accepted (methods.ts builds them). */
export type ControlHandlers = { [M in ControlMethod]: (args: ControlInput<M>) => Promise<ControlResult<M>> };

/** Every method, for transports that dispatch by name. */
export const CONTROL_METHODS = Object.keys(CONTROL_CONTRACT) as readonly ControlMethod[];

export function isControlMethod(name: string): name is ControlMethod {
  return Object.hasOwn(CONTROL_CONTRACT, name);
}

/** A method's argument schema. */
export function argSchemaOf(method: ControlMethod): z.ZodType {
  return CONTROL_CONTRACT[method].args;
}

/**
 * What the preload exposes as `window.workingSet` and the headless window builds over HTTP: `invoke`
 * answers the control envelope ({ok, result} or {ok: false, error}).
 */
export type ControlBridge = {
  invoke(method: string, args: unknown): Promise<Envelope>;
  /**
   * `opened` runs each time the window starts to listen (again, after a lost stream): events sent
   * before it were missed, so the window reads what it shows again then.
   */
  onEvent(listener: (e: CoreEvent) => void, opened?: () => void): () => void;
};

// The window's types, all from here: it imports nothing else of the core.
/** The one answer shape of every ControlApi call, on every transport (envelope.ts makes and reads it). */
export type ControlErrorBody = { code: ErrorCode | 'internal'; message: string; data: Record<string, unknown> };
export type Failure = { ok: false; error: ControlErrorBody };
export type Envelope<T = unknown> = { ok: true; result: T } | Failure;
export type { CoreEvent } from './events.js';
export type { GrantView, PendingView } from '../approvals/types.js';
export type { HistoryEntry } from '../workingset/types.js';
export type { ImportResult, ImportSource } from '../import/types.js';
export type {
  ActivityEntry,
  AgentReport,
  AgentView,
  ClientConfigs,
  CycleView,
  ExplainedHit,
  LearnedWordsView,
  MemberRow,
  SearchHit,
  SearchView,
  SetChange,
  SettingsView,
  StatusView,
  UpstreamInput,
  UpstreamLogLine,
  UpstreamLogView,
  UpstreamRow,
  UpstreamValueSet,
} from './views.js';
