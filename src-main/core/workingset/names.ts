// The names in an agent's working set before they meet the toolbox: global pins, the agent's pins,
// then the seed working-set file. One function, so the proxy and `mws search` agree.
import type { Config } from '../config/schema.js';
import type { SeedWorkingSetFile } from './seedFile.js';

export function workingSetNames(config: Config, seed: SeedWorkingSetFile): (agentId: string) => string[] {
  const agentPins = new Map(config.agents.map((a) => [a.id, a.pins]));
  return (agentId) => [...config.pins, ...(agentPins.get(agentId) ?? []), ...seed.current()];
}
