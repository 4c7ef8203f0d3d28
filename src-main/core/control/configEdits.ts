// Edits of the config from the control methods: each one validated and saved through the
// ConfigEditor (which keeps a copy of the file as it was), then applied to the running core.
import { MwsError } from '../errors.js';
import type { Config } from '../config/schema.js';
import type { ConfigEditor, Raw } from '../config/editor.js';
import type { ToolboxCatalog } from '../toolbox/merge.js';
import type { SecretStore } from '../secrets/store.js';
import type { AgentView } from './api.js';
import type { ControlHandlers } from './contract.js';

/** What the settings areas (settings.ts, agentSettings.ts, upstreamSettings.ts) work on. */
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

/** The config's raw document, edited in place by the settings areas. */
export type ConfigEdits = {
  /** Saves an edit: the window, the tray and the CLI (through the control API) each keep a backup. */
  edit(mutate: (raw: Raw) => void): Promise<Config>;
  agentsOf(raw: Raw): Raw[];
  /** The agent's entry, written down when it is `default` and was not (editing it writes it down). */
  findAgent(raw: Raw, id: string): Raw;
  upstreamsOf(raw: Raw): Raw;
};

/** "No agent "x". The agents are: default, codex." — the refusal names the ones there are. */
export function noAgent(id: string, agents: readonly { id: string }[]): MwsError {
  return new MwsError('agent_not_found', `No agent ${JSON.stringify(id)}. The agents are: ${agents.map((x) => x.id).join(', ')}.`, {
    agent: id,
  });
}

export function configEdits(p: { config: Config; editor: ConfigEditor; now?: (() => number) | undefined }): ConfigEdits {
  const agentsOf = (raw: Raw): Raw[] => {
    if (!Array.isArray(raw.agents)) raw.agents = [];
    return raw.agents as Raw[];
  };
  return {
    edit: (mutate) => p.editor.update(mutate, { backup: { now: (p.now ?? Date.now)() } }),
    agentsOf,
    findAgent(raw, id) {
      let a = agentsOf(raw).find((x) => x.id === id);
      if (!a) {
        if (!p.config.agents.some((x) => x.id === id)) throw noAgent(id, p.config.agents);
        a = { id };
        agentsOf(raw).push(a);
      }
      return a;
    },
    upstreamsOf(raw) {
      if ('upstream' in raw) {
        throw new MwsError(
          'conflict',
          'This config uses the single "upstream" field. To manage several upstreams here, move it under "upstreams" with a vendor name (its tools are then named vendor__tool).',
        );
      }
      if (typeof raw.upstreams !== 'object' || raw.upstreams === null) raw.upstreams = {};
      return raw.upstreams as Raw;
    },
  };
}
