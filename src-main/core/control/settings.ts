// The ControlApi's settings half: agents, upstreams and general settings, each edit validated and
// saved through the ConfigEditor, then applied to the running core (an upstream's config as shown and
// sent: upstreamConfig.ts).
import { MwsError } from '../errors.js';
import { DEFAULT_PORT, type Config } from '../config/schema.js';
import type { ConfigEditor, Raw } from '../config/editor.js';
import { validateConfig } from '../config/validate.js';
import { fieldRules } from '../config/fieldRules.js';
import type { ToolboxCatalog } from '../toolbox/merge.js';
import { maskUrlsIn } from '../redact.js';
import { newAgentToken } from '../agentToken.js';
import { shellLine } from '../printable.js';
import { clientToolTimeoutSec } from '../import/clientTimeouts.js';
import type { AgentView, BoundedField, ClientConfigs, SettingsView, UpstreamRow } from './api.js';
import { VENDOR_SLUG, type ControlHandlers } from './contract.js';
import type { SecretStore } from '../secrets/store.js';
import { applyMoves, planMoves, storeMoves } from '../secrets/move.js';
import { ownsSecret } from '../secrets/refs.js';
import { MASK, refuseMovedSecrets, upstreamJson, upstreamRows } from './upstreamConfig.js';

export type SettingsParts = {
  config: Config;
  editor: ConfigEditor;
  catalog: ToolboxCatalog;
  configPath: string | null;
  agentView: (id: string) => AgentView;
  members: ControlHandlers['workingSet'];
  /** Set while the built-in demo is served: adding an upstream then means leaving the demo, asked first. */
  demo?: () => { stateDir: string } | null;
  /** Where secret values typed into the form go (config.json gets `${secret:…}` references). */
  secrets?: SecretStore;
  /** The time for the backup's name each edit keeps of the config (backups.ts). */
  now?: () => number;
};

/** Where each number a form edits sits in the config, for its bounds (read once: the schema does not change). */
const BOUNDED: Record<BoundedField, ReadonlyArray<PropertyKey>> = {
  cap: ['agents', 0, 'cap'],
  idleWindowDays: ['agents', 0, 'idleWindowDays'],
  port: ['listen', 'port'],
  minSessions: ['promote', 'minSessions'],
  minCalls: ['promote', 'minCalls'],
  windowDays: ['promote', 'windowDays'],
  pinDecayDays: ['promote', 'pinDecayDays'],
};
let formBounds: SettingsView['bounds'] | undefined;
const FORM_BOUNDS = (): SettingsView['bounds'] =>
  (formBounds ??= Object.fromEntries(
    Object.entries(BOUNDED).map(([k, path]) => {
      const { min, max } = fieldRules(path);
      return [k, { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) }];
    }),
  ) as SettingsView['bounds']);

type SettingsMethods = Pick<
  ControlHandlers,
  | 'createAgent'
  | 'updateAgent'
  | 'deleteAgent'
  | 'pin'
  | 'clientConfigs'
  | 'upstreams'
  | 'saveUpstream'
  | 'removeUpstream'
  | 'testUpstream'
  | 'settings'
  | 'updateSettings'
  | 'agentToken'
>;

export function settingsControl(p: SettingsParts): SettingsMethods {
  // Every edit from here (the window, the tray, the CLI through the control API) keeps a copy of the file as it was.
  const edit = (mutate: (raw: Raw) => void) => p.editor.update(mutate, { backup: { now: (p.now ?? Date.now)() } });
  const agentsOf = (raw: Raw): Raw[] => {
    if (!Array.isArray(raw.agents)) raw.agents = [];
    return raw.agents as Raw[];
  };
  const findAgent = (raw: Raw, id: string): Raw => {
    let a = agentsOf(raw).find((x) => x.id === id);
    if (!a) {
      if (!p.config.agents.some((x) => x.id === id)) throw new MwsError('agent_not_found', `No agent "${id}".`);
      // `default` exists without being written down; editing it writes it down.
      a = { id };
      agentsOf(raw).push(a);
    }
    return a;
  };
  const upstreamsOf = (raw: Raw): Raw => {
    if ('upstream' in raw) {
      throw new MwsError(
        'conflict',
        'This config uses the single "upstream" field. To manage several upstreams here, move it under "upstreams" with a vendor name (its tools are then named vendor__tool).',
      );
    }
    if (typeof raw.upstreams !== 'object' || raw.upstreams === null) raw.upstreams = {};
    return raw.upstreams as Raw;
  };
  const rows = (): UpstreamRow[] => upstreamRows(p);
  /**
   * The port the config file asks for. A run started with --port listens elsewhere, but Save must not
   * write that port into the file: the client entries written by import point at the file's port.
   */
  const filePort = (): number => {
    if (!p.editor.editable) return p.config.listen.port;
    const port = (p.editor.current().listen as { port?: unknown } | undefined)?.port;
    return typeof port === 'number' ? port : DEFAULT_PORT;
  };
  const settingsView = (): SettingsView => ({
    port: filePort(),
    compactDescriptions: p.config.compactDescriptions,
    promote: {
      minSessions: p.config.promote.minSessions,
      minCalls: p.config.promote.minCalls,
      windowDays: p.config.promote.windowDays,
      pinDecayDays: p.config.promote.pinDecayDays,
    },
    configPath: p.configPath,
    bounds: FORM_BOUNDS(),
  });
  const fields = (a: { name?: unknown; cap?: unknown; idleWindowDays?: unknown; approvals?: unknown }) =>
    Object.fromEntries(
      Object.entries({ name: a.name, cap: a.cap, idleWindowDays: a.idleWindowDays, approvals: a.approvals }).filter(
        ([, v]) => v !== undefined,
      ),
    );

  return {
    async createAgent(a) {
      if (p.config.agents.some((x) => x.id === a.id))
        throw new MwsError('conflict', `An agent "${a.id}" already exists; pick another id.`, { agent: a.id });
      await edit((raw) => void agentsOf(raw).push({ id: a.id, ...fields(a) }));
      return p.agentView(a.id);
    },
    async updateAgent(a) {
      await edit((raw) => Object.assign(findAgent(raw, a.id), fields(a)));
      return p.agentView(a.id);
    },
    async deleteAgent(a) {
      if (a.id === 'default')
        throw new MwsError('conflict', 'The default agent always exists; it cannot be deleted.', { agent: 'default' });
      await edit((raw) => {
        const list = agentsOf(raw);
        const i = list.findIndex((x) => x.id === a.id);
        if (i < 0) throw new MwsError('agent_not_found', `No agent "${a.id}".`);
        list.splice(i, 1);
      });
      return { deleted: a.id };
    },
    async pin(a) {
      await edit((raw) => {
        const agent = findAgent(raw, a.agent);
        const pins = new Set(Array.isArray(agent.pins) ? (agent.pins as string[]) : []);
        if (a.pinned) pins.add(a.tool);
        else pins.delete(a.tool);
        agent.pins = [...pins];
      });
      return p.members({ agent: a.agent });
    },
    async clientConfigs(a): Promise<ClientConfigs> {
      const v = p.agentView(a.agent);
      const name = p.config.serverName;
      // An agent with a token: every config carries the header its endpoint requires.
      const token = p.config.agents.find((x) => x.id === a.agent)?.token;
      // `masked`: the window shows the snippets with the token hidden (it was shown once, when made) and
      // asks for the real one only to copy it.
      const auth = token ? `Bearer ${a.masked ? MASK : token}` : undefined;
      return {
        url: v.url,
        // Quoted for the shell by a library made for it; serverName is a bare TOML key (configSchema).
        claudeCode:
          shellLine([
            'claude',
            'mcp',
            'add',
            '--transport',
            'http',
            name,
            v.url,
            ...(auth ? ['--header', `Authorization: ${auth}`] : []),
          ]) ?? '',
        // Codex gives up on a call after 60 s unless told otherwise; a call through Working Set may take longer.
        codex: `[mcp_servers.${name}]\nurl = ${JSON.stringify(v.url)}${auth ? `\nhttp_headers = { "Authorization" = ${JSON.stringify(auth)} }` : ''}\ntool_timeout_sec = ${clientToolTimeoutSec(p.config.timeouts)}`,
        json: JSON.stringify(
          { mcpServers: { [name]: { type: 'http', url: v.url, ...(auth ? { headers: { Authorization: auth } } : {}) } } },
          null,
          2,
        ),
      };
    },
    async agentToken(a) {
      if (!p.config.agents.some((x) => x.id === a.agent)) throw new MwsError('agent_not_found', `No agent ${JSON.stringify(a.agent)}.`);
      const token = newAgentToken();
      await edit((raw) => void (findAgent(raw, a.agent).token = token));
      return { agent: a.agent, token, header: `Authorization: Bearer ${token}` };
    },
    async upstreams() {
      return rows();
    },
    async saveUpstream(a) {
      const demo = p.demo?.();
      if (demo && a.leaveDemo !== true) {
        throw new MwsError(
          'demo_mode',
          `This is the demo. Adding an upstream leaves it: the upstream is saved to the config, and takes over when Working Set is restarted without --demo, with its own fresh state. The demo's state stays in ${demo.stateDir} for the next demo. Confirm to leave the demo (leaveDemo: true).`,
          { demoStateDir: demo.stateDir },
        );
      }
      // Adding under a name that is taken would replace what is saved there without a word: it is refused
      // unless the call says it is an edit (the window's Edit form, or after the user confirmed). Checked
      // before any secret is stored, so a refused save cannot overwrite the saved upstream's secrets.
      const refuseTaken = (ups: Raw) => {
        if (Object.hasOwn(ups, a.vendor) && a.replace !== true) {
          throw new MwsError(
            'upstream_exists',
            `An upstream named "${a.vendor}" already exists; nothing was changed. Pick another name, or edit "${a.vendor}" (replace: true) to replace it.`,
            { path: 'vendor', vendor: a.vendor, reason: 'is the name of an upstream that exists' },
          );
        }
      };
      refuseTaken(upstreamsOf(p.editor.current()));
      const saved = (p.editor.current().upstreams as Raw | undefined)?.[a.vendor];
      const planned = upstreamJson(a.upstream, saved);
      // Before any secret is stored: a refused save leaves the saved secrets as they were.
      refuseMovedSecrets(a.vendor, a.upstream, saved, planned);
      // Secret values typed in go to the secret store first; the file gets references to them.
      const moves = p.secrets ? planMoves(a.vendor, planned) : [];
      if (p.secrets) await storeMoves(moves, p.secrets);
      await edit((raw) => {
        const ups = upstreamsOf(raw);
        refuseTaken(ups);
        const json = upstreamJson(a.upstream, ups[a.vendor]);
        refuseMovedSecrets(a.vendor, a.upstream, ups[a.vendor], json);
        ups[a.vendor] = json;
        applyMoves(ups[a.vendor], moves);
      });
      return rows();
    },
    async removeUpstream(a) {
      await edit((raw) => {
        const ups = upstreamsOf(raw);
        if (!Object.hasOwn(ups, a.vendor))
          throw new MwsError('not_found', `No upstream "${a.vendor}" in the config; the saved ones are listed by upstreams.`, {
            vendor: a.vendor,
          });
        delete ups[a.vendor];
      });
      // Its secrets go with it: left behind, they would be read by the next upstream of that name.
      if (p.secrets) for (const name of await p.secrets.list()) if (ownsSecret(a.vendor, name)) await p.secrets.delete(name);
      return rows();
    },
    async testUpstream(a) {
      // Testing an edited upstream uses its saved secrets where the form still shows them masked.
      const saved = a.vendor ? (p.editor.current().upstreams as Raw | undefined)?.[a.vendor] : undefined;
      const json = upstreamJson(a.upstream, saved);
      refuseMovedSecrets(a.vendor, a.upstream, saved, json);
      // Validated as the config would be, so a test never tries what saving would refuse.
      const cfg = validateConfig({ upstreams: { test: json } }, p.config.stateDir).upstreams.test!;
      // Named as saved, so its `${input:…}` values are the ones given to that upstream.
      const r = await p.catalog.probe(a.vendor && VENDOR_SLUG.test(a.vendor) ? a.vendor : 'test', cfg);
      return { ok: r.ok, era: r.era ?? null, tools: r.tools, error: r.error === undefined ? null : maskUrlsIn(r.error) };
    },
    async settings() {
      return settingsView();
    },
    async updateSettings(a) {
      // The switches are the desktop app's preferences, which its settings bridge takes out of the call;
      // the config has no place for them, so one reaching the core would be dropped without a word.
      if (a.desktop !== undefined) {
        throw new MwsError(
          'usage',
          'updateSettings: "desktop" holds the desktop app\'s own preferences (notifications, start at login), which it keeps in its preferences file; this mws runs without the desktop app and has none. Leave "desktop" out, or change them in the desktop app\'s General screen.',
          { path: 'desktop', reason: "is the desktop app's own preferences; headless mws has none" },
        );
      }
      await edit((raw) => {
        if (a.port !== undefined && a.port !== filePort()) raw.listen = { ...((raw.listen as Raw | undefined) ?? {}), port: a.port };
        if (a.compactDescriptions !== undefined) raw.compactDescriptions = a.compactDescriptions;
        if (a.promote) raw.promote = { ...((raw.promote as Raw | undefined) ?? {}), ...a.promote };
      });
      return settingsView();
    },
  };
}
