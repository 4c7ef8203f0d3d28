// The ControlApi's running-upstreams half: turn an upstream off and on (kept in the config), restart
// it, read its log; and the activity log of calls.
import { MwsError } from '../errors.js';
import type { Config } from '../config/schema.js';
import type { ConfigEditor, Raw } from '../config/editor.js';
import type { ToolboxCatalog } from '../toolbox/merge.js';
import { maskUrlsIn } from '../redact.js';
import { recentCalls } from '../usage/activity.js';
import type { ActivityEntry } from '../usage/activityTypes.js';
import type { ControlHandlers } from './contract.js';
import { upstreamRows } from './settings.js';

export type UpstreamOpsParts = {
  config: Config;
  editor: ConfigEditor;
  catalog: ToolboxCatalog;
  /** Checks an agent id (throws agent_not_found with the known ids). */
  agentId: (id: string) => string;
  /** Where the activity log is read (the fleet's shared log); default: the state folder's calls.jsonl. */
  recentCalls?: (o: { agent?: string; limit?: number }) => Promise<ActivityEntry[]>;
};

/** Restarts and turns on or off of one upstream that may wait at once; more are answered 409 busy. */
export const MAX_WAITING_CHANGES = 16;

type Methods = Pick<ControlHandlers, 'setUpstreamEnabled' | 'restartUpstream' | 'upstreamLog' | 'activity'>;

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
    async activity(a) {
      const agent = a.agent === undefined ? undefined : p.agentId(a.agent);
      const o = { ...(agent ? { agent } : {}), ...(a.limit ? { limit: a.limit } : {}) };
      return p.recentCalls ? p.recentCalls(o) : recentCalls(p.config.stateDir, o);
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
