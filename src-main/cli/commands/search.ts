// `mws search "<query>"`: the exact reply a model gets from search_tools, from the running instance,
// or from the configured upstreams when none runs.
import { DEFAULT_AGENT_ID } from '../../core/config/schema.js';
import { cliConfig, type ConfigFlags } from '../config.js';
import { withControl } from '../instance.js';
import type { Io } from '../output.js';
import { notServing } from '../upstreamNotes.js';

export type SearchFlags = ConfigFlags & { query: string | undefined; agent: string | undefined; json: boolean; limit: number | undefined };

export async function runSearch(io: Io, flags: SearchFlags): Promise<number> {
  const { config } = await cliConfig(flags);
  const agent = flags.agent ?? DEFAULT_AGENT_ID;
  return withControl(config, async ({ api, source }) => {
    const { text, bytes } = await api.search({ agent, ...(flags.query ? { query: flags.query } : {}), ...(flags.limit ? { limit: flags.limit } : {}) });
    if (flags.json) {
      io.out(JSON.stringify({ agent, query: flags.query ?? '', source, bytes, reply: JSON.parse(text) as unknown }));
    } else {
      io.out(text);
      io.err(`(${bytes} bytes, from ${source === 'running instance' ? 'the running instance' : 'the configured upstreams'})`);
      for (const line of notServing((await api.status({})).upstreams)) io.err(line);
    }
    return 0;
  });
}
