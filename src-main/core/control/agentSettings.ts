// The agents' settings: create, rename, cap, delete, pin a tool, make a token, and the client
// entries (Claude Code, Codex, JSON) that reach an agent's endpoint.
import { MwsError } from '../errors.js';
import { newAgentToken } from '../agentToken.js';
import { shellLine } from '../printable.js';
import { clientToolTimeoutSec } from '../import/clientTimeouts.js';
import type { ClientConfigs } from './api.js';
import type { ControlHandlers } from './contract.js';
import { MASK } from './upstreamConfig.js';
import { configEdits, noAgent, type SettingsParts } from './configEdits.js';

type Methods = Pick<ControlHandlers, 'createAgent' | 'updateAgent' | 'deleteAgent' | 'pin' | 'clientConfigs' | 'agentToken'>;

const fields = (a: { name?: unknown; cap?: unknown; idleWindowDays?: unknown; approvals?: unknown }) =>
  Object.fromEntries(
    Object.entries({ name: a.name, cap: a.cap, idleWindowDays: a.idleWindowDays, approvals: a.approvals }).filter(
      ([, v]) => v !== undefined,
    ),
  );

export function agentSettingsControl(p: SettingsParts): Methods {
  const { edit, agentsOf, findAgent } = configEdits(p);
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
        if (i < 0) throw noAgent(a.id, p.config.agents);
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
      if (!p.config.agents.some((x) => x.id === a.agent)) throw noAgent(a.agent, p.config.agents);
      const token = newAgentToken();
      await edit((raw) => void (findAgent(raw, a.agent).token = token));
      return { agent: a.agent, token, header: `Authorization: Bearer ${token}` };
    },
  };
}
