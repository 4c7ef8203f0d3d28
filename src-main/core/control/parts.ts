// What the control methods run over (the core's parts) and the lookups most of them share: an agent
// that must exist, a tool by any of its names, an agent's working set as rows, where clients reach us.
import { MwsError } from '../errors.js';
import { DEFAULT_PORT, type Config } from '../config/schema.js';
import { agentUrl } from '../config/agentUrl.js';
import type { Clock } from '../clock.js';
import type { ToolboxCatalog } from '../toolbox/merge.js';
import type { ToolRouter } from '../proxy/toolRouter.js';
import type { SearchService } from '../search/service.js';
import type { WorkingSets } from '../workingset/manager.js';
import type { ApprovalGate } from '../approvals/gate.js';
import type { UsageStore } from '../usage/usageStore.js';
import type { AgentView, MemberRow } from './api.js';
import type { ToolboxCosts } from './report/toolboxCosts.js';
import type { ConfigEditor } from '../config/editor.js';
import type { CoreEvents } from './events.js';
import type { SecretStore } from '../secrets/store.js';
import { MemorySecretStore } from '../secrets/store.js';
import type { ActivityEntry } from '../usage/activityTypes.js';
import type { EmbeddingStatus } from '../search/embed/types.js';
import { noToolNamed } from '../toolbox/notFound.js';

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

/** The lookups the control areas share, over one set of parts. */
export function controlLookups(p: ControlParts) {
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
    const state = p.sets.memberStates(agent);
    const lastUsed = p.usage.lastUsed(agent);
    return p.sets.names(agent).map((tool) => {
      const m = state[tool];
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

  return { secrets, iso, agentId, resolve, members, agentView, publicBase, importPorts, agentList };
}

export type ControlLookups = ReturnType<typeof controlLookups>;
