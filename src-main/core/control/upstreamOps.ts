// The ControlApi's running-upstreams half: turn an upstream off and on (kept in the config), restart
// it, read its log, list and hide its tools, sign in and out of it; and the activity log of calls.
import { MwsError } from '../errors.js';
import type { Config } from '../config/schema.js';
import type { ConfigEditor, Raw } from '../config/editor.js';
import type { ToolboxCatalog } from '../toolbox/merge.js';
import type { ToolEntry } from '../toolbox/toolbox.js';
import type { ToolRouter } from '../proxy/toolRouter.js';
import { kindOf } from './approvals.js';
import { maskUrlsIn } from '../redact.js';
import { recentCalls } from '../usage/activity.js';
import type { ActivityEntry } from '../usage/activityTypes.js';
import type { ControlHandlers } from './contract.js';
import { upstreamRows } from './upstreamConfig.js';
import { noToolNamed } from '../toolbox/notFound.js';
import { closest } from '../fuzzy.js';

export type UpstreamOpsParts = {
  config: Config;
  editor: ConfigEditor;
  catalog: ToolboxCatalog;
  router: ToolRouter;
  /** Checks an agent id (throws agent_not_found with the known ids). */
  agentId: (id: string) => string;
  /** Where the activity log is read (the fleet's shared log); default: the state folder's calls.jsonl. */
  recentCalls?: (o: { agent?: string; limit?: number }) => Promise<ActivityEntry[]>;
};

/** Restarts and turns on or off of one upstream that may wait at once; more are answered 409 busy. */
export const MAX_WAITING_CHANGES = 16;

type Methods = Pick<
  ControlHandlers,
  | 'setUpstreamEnabled'
  | 'restartUpstream'
  | 'upstreamLog'
  | 'activity'
  | 'setToolHidden'
  | 'upstreamTools'
  | 'signIn'
  | 'signOut'
  | 'resetSignIn'
>;

export function upstreamOpsControl(p: UpstreamOpsParts): Methods {
  const known = (vendor: string): string => {
    if (!Object.hasOwn(p.config.upstreams, vendor)) {
      const names = Object.keys(p.config.upstreams);
      throw new MwsError(
        'not_found',
        `No upstream ${JSON.stringify(vendor)} in the config.${names.length ? ` The upstreams are: ${names.join(', ')}.` : ' There are none yet.'}`,
        { vendor },
      );
    }
    return vendor;
  };
  // Changes to one upstream wait their turn (upstream/lanes.ts); past this many waiting, one more is
  // refused at once (409) rather than left to wait behind a flood.
  const inFlight = new Map<string, number>();
  const admitted = async <T>(vendor: string, change: () => Promise<T>): Promise<T> => {
    const n = inFlight.get(vendor) ?? 0;
    if (n >= MAX_WAITING_CHANGES)
      throw new MwsError(
        'conflict',
        `Upstream ${JSON.stringify(vendor)} is busy: ${n} restarts or turns on and off are still waiting. Try again once they are done.`,
        { vendor, waiting: n },
      );
    inFlight.set(vendor, n + 1);
    try {
      return await change();
    } finally {
      const left = (inFlight.get(vendor) ?? 1) - 1;
      if (left > 0) inFlight.set(vendor, left);
      else inFlight.delete(vendor);
    }
  };
  return {
    async setUpstreamEnabled(a) {
      const vendor = known(a.vendor);
      await admitted(vendor, () => p.editor.update((raw) => setEnabledIn(raw, vendor, a.enabled)));
      return upstreamRows(p);
    },
    async restartUpstream(a) {
      const vendor = known(a.vendor);
      await admitted(vendor, () => p.catalog.restart(vendor));
      return upstreamRows(p);
    },
    async upstreamLog(a) {
      const vendor = known(a.vendor);
      const info = p.catalog.statuses().find((s) => s.vendor === vendor);
      const status = info?.status ?? 'starting';
      // Masked as the status line is: a server may print a URL with a token in it.
      const lines = (p.catalog.log(vendor, a.lines) ?? []).map((l) => ({
        ts: new Date(l.ts).toISOString(),
        kind: l.kind,
        text: maskUrlsIn(l.text),
      }));
      return {
        vendor,
        status,
        ...(info?.auth ? { auth: { signedIn: info.auth.signedIn, ...(info.auth.lost ? { lost: true } : {}) } } : {}),
        lines,
      };
    },
    async setToolHidden(a) {
      const vendor = known(a.vendor);
      const toolbox = p.catalog.toolbox();
      const entries = [...toolbox.all(), ...toolbox.hidden()].filter((e) => e.vendor === vendor);
      const before = p.config.hiddenTools[vendor] ?? [];
      const tool = toolNameAt(
        vendor,
        a.tool,
        entries.map((e) => ({ name: e.name, remoteName: e.remoteName })),
        before,
      );
      let hiddenTools = before;
      await p.editor.update((raw) => {
        hiddenTools = setToolHiddenIn(raw, vendor, tool, a.hidden);
      });
      return { vendor, tool, hidden: a.hidden, changed: before.includes(tool) !== a.hidden, hiddenTools };
    },
    async activity(a) {
      const agent = a.agent === undefined ? undefined : p.agentId(a.agent);
      const o = { ...(agent ? { agent } : {}), ...(a.limit ? { limit: a.limit } : {}) };
      return p.recentCalls ? p.recentCalls(o) : recentCalls(p.config.stateDir, o);
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
    async signIn(a) {
      return p.catalog.signIn(a.vendor);
    },
    async signOut(a) {
      return p.catalog.signOut(a.vendor);
    },
    async resetSignIn(a) {
      return p.catalog.resetSignIn(a.vendor);
    },
  };
}

/**
 * Turns an upstream off (`enabled: false`) or on (the field removed: on is the default) in the file's
 * JSON, under "upstreams" or the single seed-style "upstream". The CLI uses it too, with no instance.
 */
export function setEnabledIn(raw: Raw, vendor: string, enabled: boolean): void {
  const single = raw.upstream as Raw | undefined;
  const e = single && typeof single === 'object' && !raw.upstreams ? single : (raw.upstreams as Record<string, Raw> | undefined)?.[vendor];
  if (!e || typeof e !== 'object') throw new MwsError('not_found', `No upstream "${vendor}" in the config file.`, { vendor });
  if (enabled) delete e.enabled;
  else e.enabled = false;
}

/**
 * The upstream's own name of the tool `given` names (listed as vendor__tool, or as the upstream gives it).
 * A name the upstream does not list is refused with the close ones; while it has listed nothing yet
 * (not started, signed out) a name is taken as given, so a tool can be hidden before it first shows.
 */
export function toolNameAt(
  vendor: string,
  given: string,
  listed: ReadonlyArray<{ name: string; remoteName: string }>,
  hidden: readonly string[] = [],
): string {
  const own = given.startsWith(`${vendor}__`) ? given.slice(vendor.length + 2) : given;
  const hit = listed.find((e) => e.name === given || e.remoteName === given || e.remoteName === own);
  if (hit) return hit.remoteName;
  if (listed.length === 0 || hidden.includes(own)) return own;
  throw new MwsError(
    'not_found',
    noToolNamed(
      given,
      [
        closest(
          own,
          listed.map((e) => e.remoteName),
        ),
      ].filter((n): n is string => n !== undefined),
      {
        where: ` at upstream "${vendor}"`,
        next: `\`mws tool list ${vendor}\` shows its tools.`,
      },
    ),
    { vendor, tool: given },
  );
}

/**
 * Hides a tool of an upstream (its name as the upstream gives it) or shows it again, in the file's JSON
 * under "hiddenTools"; an upstream left with none hidden, and an empty "hiddenTools", are removed. Answers
 * the upstream's hidden tools after. The CLI uses it too, with no instance.
 */
export function setToolHiddenIn(raw: Raw, vendor: string, tool: string, hidden: boolean): string[] {
  const all = (raw.hiddenTools && typeof raw.hiddenTools === 'object' ? raw.hiddenTools : {}) as Record<string, unknown>;
  const had = Array.isArray(all[vendor]) ? (all[vendor] as unknown[]).filter((t): t is string => typeof t === 'string') : [];
  const next = hidden ? [...new Set([...had, tool])] : had.filter((t) => t !== tool);
  if (next.length) all[vendor] = next;
  else delete all[vendor];
  if (Object.keys(all).length) raw.hiddenTools = all;
  else delete raw.hiddenTools;
  return next;
}
