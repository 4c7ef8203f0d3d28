// `mws search "<query>"`: the exact reply a model gets from search_tools, from the running instance,
// or from the configured upstreams when none runs.
import { Catalog } from '../../core/upstream/catalog.js';
import { SearchService } from '../../core/search/service.js';
import { SeedWorkingSetFile } from '../../core/workingset/seedFile.js';
import { workingSetNames } from '../../core/workingset/names.js';
import { MwsError } from '../../core/errors.js';
import { systemClock } from '../../core/clock.js';
import { silentLogger } from '../../core/log.js';
import { DEFAULT_AGENT_ID, type Config } from '../../core/config/schema.js';
import { cliConfig, type ConfigFlags } from '../config.js';
import { callRunning } from '../instance.js';
import type { Io } from '../output.js';

export type SearchFlags = ConfigFlags & { query: string | undefined; agent: string | undefined; json: boolean; limit: number | undefined };

export async function runSearch(io: Io, flags: SearchFlags): Promise<number> {
  const { config } = await cliConfig(flags);
  const agentId = flags.agent ?? DEFAULT_AGENT_ID;
  if (!config.agents.some((a) => a.id === agentId)) {
    throw new MwsError('usage', `No agent "${agentId}" in the config; known agents: ${config.agents.map((a) => a.id).join(', ')}.`);
  }
  const args = { ...(flags.query ? { query: flags.query } : {}), ...(flags.limit ? { limit: flags.limit } : {}) };
  const live = await callRunning(config, agentId, 'search_tools', args);
  const text = live ? (live.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('') : await searchLocally(config, agentId, flags);
  if (live?.isError) throw new MwsError('usage', text);
  if (flags.json) {
    io.out(JSON.stringify({ agent: agentId, query: flags.query ?? '', source: live ? 'running instance' : 'config', bytes: Buffer.byteLength(text), reply: JSON.parse(text) as unknown }));
  } else {
    io.out(text);
    io.err(`(${Buffer.byteLength(text)} bytes, from ${live ? 'the running instance' : 'the configured upstreams'})`);
  }
  return 0;
}

async function searchLocally(config: Config, agentId: string, flags: SearchFlags): Promise<string> {
  const catalog = new Catalog({ config, log: silentLogger, now: () => systemClock.now(), onChange: () => {} });
  await catalog.start();
  try {
    const names = workingSetNames(config, new SeedWorkingSetFile(config.stateDir, silentLogger));
    const listed = new Set(names(agentId));
    const search = new SearchService(() => catalog.toolbox(), config.searchAliases);
    return search.search(flags.query, flags.limit, (e) => listed.has(e.name)).text;
  } finally {
    await catalog.stop();
  }
}
