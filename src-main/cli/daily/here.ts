// This instance as a client's file would name it: the agents' endpoint URLs, the bearer header an agent
// with a token needs, and the ports and hosts that mean "here". From the running instance when there is
// one (its real port), else from the config (what `mws serve` will listen on).
import type { Config } from '../../core/config/schema.js';
import { DEFAULT_PORT } from '../../core/config/schema.js';
import type { ControlApi } from '../../core/control/api.js';
import type { Here } from '../../core/import/connect.js';
import { baseUrl } from '../instance.js';

export type Instance = {
  running: boolean;
  base: string;
  here: Here;
  agents: string[];
  /** The agent's endpoint, as the instance prints it. */
  url(agent: string): Promise<string>;
  /** The headers the agent's endpoint requires (its bearer token), or undefined. */
  headers(agent: string): Promise<Record<string, string> | undefined>;
};

const portOf = (u: string) => {
  const x = new URL(u);
  return Number(x.port || (x.protocol === 'https:' ? 443 : 80));
};

export async function instanceOf(config: Config, api: ControlApi | undefined): Promise<Instance> {
  const hosts = config.listen.publicUrl ? [new URL(config.listen.publicUrl).host.toLowerCase()] : [];
  // The ports Working Set is or would be on: what runs now, what the config asks for, the default.
  const ports = new Set([config.listen.port, DEFAULT_PORT].filter((p) => p > 0));
  if (api) {
    const s = await api.status({});
    ports.add(portOf(s.url));
    const urls = new Map(s.agents.map((a) => [a.id, a.url]));
    return {
      running: true,
      base: s.url,
      here: { ports: [...ports], hosts },
      agents: s.agents.map((a) => a.id),
      url: async (agent) => urls.get(agent)!,
      headers: async (agent) => {
        const c = await api.clientConfigs({ agent });
        const entry = Object.values(
          (JSON.parse(c.json) as { mcpServers: Record<string, { headers?: Record<string, string> }> }).mcpServers,
        )[0];
        return entry?.headers;
      },
    };
  }
  const base = config.listen.publicUrl ? new URL(config.listen.publicUrl).origin : baseUrl(config);
  return {
    running: false,
    base,
    here: { ports: [...ports], hosts },
    agents: config.agents.map((a) => a.id),
    url: async (agent) => `${base}/mcp${agent === 'default' ? '' : `/${agent}`}`,
    headers: async (agent) => {
      const token = config.agents.find((a) => a.id === agent)?.token;
      return token ? { Authorization: `Bearer ${token}` } : undefined;
    },
  };
}
