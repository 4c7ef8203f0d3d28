// The run function of every control method over the core's parts: the working set ones here, the
// rest from searchControl.ts, report/reportControl.ts, settings.ts, approvals.ts, upstreamOps.ts and values.ts. Arguments arrive
// checked against contract.ts; what is checked here needs the state (an agent or a tool that exists).
import { MwsError } from '../errors.js';
import { DEFAULT_PORT, type Config } from '../config/schema.js';
import { agentUrl } from '../config/agentUrl.js';
import type { Clock } from '../clock.js';
import type { ToolboxCatalog } from '../toolbox/merge.js';
import type { ToolEntry } from '../toolbox/toolbox.js';
import type { ToolRouter } from '../proxy/toolRouter.js';
import type { SearchService } from '../search/service.js';
import type { WorkingSets } from '../workingset/manager.js';
import type { ApprovalGate } from '../approvals/gate.js';
import type { UsageStore } from '../usage/usageStore.js';
import type { AgentView, MemberRow } from './api.js';
import type { ControlApi, ControlHandlers } from './contract.js';
import { controlClient } from './envelope.js';
import type { ToolboxCosts } from './report/toolboxCosts.js';
import { reportControl } from './report/reportControl.js';
import { searchControl } from './searchControl.js';
import type { ConfigEditor } from '../config/editor.js';
import type { CoreEvents } from './events.js';
import { settingsControl } from './settings.js';
import { maskUrlsIn } from '../redact.js';
import { approvalsControl, kindOf } from './approvals.js';
import { valuesControl } from './values.js';
import type { SecretStore } from '../secrets/store.js';
import { MemorySecretStore } from '../secrets/store.js';
import { upstreamOpsControl } from './upstreamOps.js';
import type { ActivityEntry } from '../usage/activityTypes.js';
import type { EmbeddingStatus } from '../search/embed/types.js';
import { noToolNamed } from '../toolbox/notFound.js';
import { currentActor } from '../actor.js';

/** Switches the running core holds outside the config. */
export type InstanceState = { proxyPaused: boolean; restartNeeded: boolean; demo?: { stateDir: string } | null };

export type ControlParts = {
  config: Config;
  clock: Clock;
  catalog: ToolboxCatalog;
  router: ToolRouter;
  search: SearchService;
  /** Semantic search's state (the sentence model), shown in the status. */
  vectors?: { status(): EmbeddingStatus };
  sets: WorkingSets;
  gate: ApprovalGate;
  usage: UsageStore;
  baseUrl: () => string;
  editor: ConfigEditor;
  configPath: string | null;
  runtime: InstanceState;
  events: CoreEvents;
  /** A fresh one-time token for the headless window. */
  uiToken: () => string;
  /** Ends every headless window session; answers how many. */
  uiRevokeAll?: () => number;
  /** Where secret and filled-in values live (the app's; tests may leave it out). */
  secrets?: SecretStore;
  /** Call records of an agent that could not be written since start (a full disk): usage/callLog.ts. */
  droppedCallRecords?: (agent: string) => number;
  /** The latest calls from the fleet's shared log (statestore/); default: this state folder's calls.jsonl. */
  recentCalls?: (o: { agent?: string; limit?: number }) => Promise<ActivityEntry[]>;
  /** What listing the whole toolbox costs, counted ahead by the app (default: counted at the first report). */
  costs?: ToolboxCosts;
};

/** The ControlApi over the core's parts: every caller in process goes through its argument checks. */
export function createControl(p: ControlParts): ControlApi {
  return controlClient(controlHandlers(p));
}

export function controlHandlers(p: ControlParts): ControlHandlers {
  const secrets = p.secrets ?? new MemorySecretStore();
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  const agentId = (id: string) => {
    p.sets.agent(id); // throws agent_not_found with the known ids
    return id;
  };
  const resolve = (tool: string) => {
    const entry = p.catalog.toolbox().resolve(tool);
    if (!entry) {
      const near = p.search.closeNames(tool, 3);
      throw new MwsError('tool_not_found', noToolNamed(tool, near), { tool, matches: near });
    }
    return entry;
  };
  const members = (agent: string, isoOf: (ms: number | null) => string | null = iso): MemberRow[] => {
    const tb = p.catalog.toolbox();
    const state = new Map(p.sets.members(agent).map((m) => [m.tool, m]));
    const lastUsed = p.usage.lastUsed(agent);
    return p.sets.names(agent).map((tool) => {
      const m = state.get(tool);
      const e = tb.get(tool) ?? tb.resolve(tool);
      return {
        tool,
        promotedBy: m?.promotedBy ?? 'pin',
        promotedAt: isoOf(m?.promotedAt ?? 0)!,
        lastUsedAt: isoOf(m?.lastUsedAt ?? lastUsed[tool] ?? null),
        pinned: m?.pinned ?? (m ? null : 'config'),
        readOnly: e?.readOnly ?? false,
        destructive: e?.destructive ?? false,
        available: e !== undefined,
      };
    });
  };
  const agentView = (id: string): AgentView => {
    const a = p.sets.agent(id);
    return {
      id,
      name: a.name,
      cap: a.cap,
      idleWindowDays: a.idleWindowDays,
      approvals: a.approvals,
      size: p.sets.listedCount(id),
      hasToken: a.token !== undefined,
      url: agentUrl(publicBase(), id),
    };
  };
  /** Where clients reach this instance: the proxy's public origin when one is configured, else the listener. */
  const publicBase = (): string => (p.config.listen.publicUrl ? new URL(p.config.listen.publicUrl).origin : p.baseUrl());
  /** The port the config file asks for (0, "any free port", means the one in use now). */
  const filePort = (): number => {
    const port = (p.editor.current().listen as { port?: unknown } | undefined)?.port;
    return typeof port === 'number' && port > 0 ? port : port === undefined ? DEFAULT_PORT : Number(new URL(p.baseUrl()).port);
  };
  const importPorts = () => [...new Set([filePort(), Number(new URL(p.baseUrl()).port), p.config.listen.port, DEFAULT_PORT])];
  const agentList = (ids: string[] | undefined) => ids?.map(agentId);

  const paused = () => p.events.emit({ type: 'paused', proxy: p.runtime.proxyPaused, demotion: p.sets.demotionPaused });
  return {
    ...searchControl({ catalog: p.catalog, router: p.router, search: p.search, agentId }),
    ...reportControl({
      get config() {
        return p.config;
      },
      clock: p.clock,
      catalog: p.catalog,
      router: p.router,
      sets: p.sets,
      usage: p.usage,
      events: p.events,
      agentId,
      members,
      ...(p.costs ? { costs: p.costs } : {}),
      ...(p.droppedCallRecords ? { droppedCallRecords: p.droppedCallRecords } : {}),
    }),
    ...approvalsControl({
      get config() {
        return p.config;
      },
      clock: p.clock,
      catalog: p.catalog,
      gate: p.gate,
      events: p.events,
      agentId,
      resolve,
    }),
    ...upstreamOpsControl({
      get config() {
        return p.config;
      },
      editor: p.editor,
      catalog: p.catalog,
      agentId,
      ...(p.recentCalls ? { recentCalls: p.recentCalls } : {}),
    }),
    ...settingsControl({
      get config() {
        return p.config;
      },
      editor: p.editor,
      catalog: p.catalog,
      configPath: p.configPath,
      agentView,
      members: async (a) => members(agentId(a.agent)),
      demo: () => p.runtime.demo ?? null,
      secrets,
      now: () => p.clock.now(),
    }),
    ...valuesControl({
      get config() {
        return p.config;
      },
      editor: p.editor,
      catalog: p.catalog,
      secrets,
    }),
    async status() {
      return {
        url: p.baseUrl(),
        toolboxSize: p.catalog.toolbox().size,
        upstreams: p.catalog.statuses().map((u) => ({ ...u, lastError: u.lastError && maskUrlsIn(u.lastError) })),
        agents: p.config.agents.map((a) => agentView(a.id)),
        demotionPaused: p.sets.demotionPaused,
        proxyPaused: p.runtime.proxyPaused,
        pendingApprovals: p.gate.pending.list().length,
        restartNeeded: p.runtime.restartNeeded,
        editable: p.editor.editable,
        configVersion: p.editor.version ?? null,
        demo: p.runtime.demo ?? null,
        ...(p.vectors ? { semanticSearch: p.vectors.status() } : {}),
        ...(currentActor() ? { operator: currentActor() } : {}),
      };
    },
    async workingSet(a) {
      return members(agentId(a.agent));
    },
    async history(a) {
      const h = await p.sets.history(agentId(a.agent));
      return a.limit ? h.slice(-a.limit) : h;
    },
    async promote(a) {
      const agent = agentId(a.agent);
      const e = resolve(a.tool);
      const changed = await p.sets.promote(agent, e.name, e.vendor, 'user');
      return { tool: e.name, changed, size: p.sets.listedCount(agent) };
    },
    async demote(a) {
      const agent = agentId(a.agent);
      const name = p.catalog.toolbox().resolve(a.tool)?.name ?? a.tool;
      if (!p.sets.members(agent).some((m) => m.tool === name) && !p.catalog.toolbox().get(name)) resolve(a.tool);
      const changed = await p.sets.demote(agent, name, 'user');
      return { tool: name, changed, size: p.sets.listedCount(agent) };
    },
    async cycle(a) {
      return p.sets.cycle(p.clock.now(), { dryRun: a.dryRun === true, ...(a.agents ? { agents: agentList(a.agents)! } : {}) });
    },
    async sweepPreview(a) {
      // Exactly the rule the sweep applies: the scheduled cycle, dry.
      return p.sets.sweepPreview(Date.parse(a.now), agentList(a.agents));
    },
    async setDemotionPaused(a) {
      p.sets.demotionPaused = a.paused;
      paused();
      return { paused: p.sets.demotionPaused };
    },
    async uiRevokeAll() {
      return { ended: p.uiRevokeAll?.() ?? 0 };
    },
    async uiLink() {
      return { url: `${publicBase()}/ui?token=${p.uiToken()}` };
    },
    async upstreamTools(a) {
      const vendor = a.vendor;
      const listedBy = new Map<string, string[]>();
      for (const ag of p.config.agents)
        for (const e of p.router.workingSetEntries(ag.id)) listedBy.set(e.name, [...(listedBy.get(e.name) ?? []), ag.id]);
      const toolbox = p.catalog.toolbox();
      const row = (e: ToolEntry, hidden: boolean) => ({
        name: e.name,
        description: e.tool.description ?? null,
        kind: kindOf(e),
        agents: hidden ? [] : (listedBy.get(e.name) ?? []),
        hidden,
      });
      return [
        ...[...toolbox.all()].filter((e) => e.vendor === vendor).map((e) => row(e, false)),
        ...toolbox
          .hidden()
          .filter((e) => e.vendor === vendor)
          .map((e) => row(e, true)),
      ];
    },
    // The import feature (and its JSONC and TOML parsers) loads when it is used, not with every start.
    // Client entries point at the port of the config file (what is right after a restart, and what the
    // CLI writes too), not at a --port given for this run; own entries are known at either port.
    async importScan(a) {
      return (await import('../import/service.js')).scanImports(
        a,
        {},
        {
          self: { serverName: p.config.serverName, ports: importPorts() },
          upstreams: (p.editor.current().upstreams ?? {}) as Record<string, unknown>,
        },
      );
    },
    async importServers(a) {
      return (await import('../import/service.js')).applyImport(a, {
        get config() {
          return p.config;
        },
        editor: p.editor,
        configPath: p.configPath,
        // The running instance's URL: the one the client can reach now (started with --port, it is not the file's).
        agentUrl: (id) => agentUrl(new URL(p.baseUrl()).origin, agentId(id)),
        now: () => p.clock.now(),
        ports: importPorts(),
        secrets,
      });
    },
    async signIn(a) {
      return p.catalog.signIn(a.vendor);
    },
    async signOut(a) {
      return p.catalog.signOut(a.vendor);
    },
    async resetSignIn(a) {
      return p.catalog.resetSignIn(a.vendor);
    },
    async setProxyPaused(a) {
      p.runtime.proxyPaused = a.paused;
      paused();
      return { paused: p.runtime.proxyPaused };
    },
  };
}
