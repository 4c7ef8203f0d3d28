// `mws search "<query>"`: the exact reply a model gets from search_tools, from the running instance,
// or from the configured upstreams when none runs.
import { DEFAULT_AGENT_ID } from '../../core/config/schema.js';
import { cliConfig, type ConfigFlags } from '../config.js';
import { withControl } from '../instance.js';
import type { Io } from '../output.js';
import { notServing } from '../upstreamNotes.js';

export type SearchFlags = ConfigFlags & { query: string | undefined; agent: string | undefined; json: boolean; limit: number | undefined; explain?: boolean };

export async function runSearch(io: Io, flags: SearchFlags): Promise<number> {
  const { config } = await cliConfig(flags);
  const agent = flags.agent ?? DEFAULT_AGENT_ID;
  return withControl(config, async ({ api, source }) => {
    const { text, bytes, explain } = await api.search({ agent, ...(flags.query ? { query: flags.query } : {}), ...(flags.limit ? { limit: flags.limit } : {}), ...(flags.explain ? { explain: true } : {}) });
    if (flags.json) {
      io.out(JSON.stringify({ agent, query: flags.query ?? '', source, bytes, reply: JSON.parse(text) as unknown, ...(explain ? { explain } : {}) }));
    } else if (flags.explain && explain) {
      // One line per hit: its score, then each query word and the fields it matched (learned words included).
      for (const [i, h] of explain.entries()) {
        io.out(`${String(i + 1).padStart(2)}. ${h.tool}  (score ${h.score})`);
        for (const m of h.matches) io.out(`      ${m.word}${m.via === 'word' ? '' : ` (${m.via})`}: ${m.fields.join(', ')}`);
      }
      io.err(`(${explain.length} hits explained, from ${source === 'running instance' ? 'the running instance' : 'the configured upstreams'})`);
    } else {
      io.out(text);
      io.err(`(${bytes} bytes, from ${source === 'running instance' ? 'the running instance' : 'the configured upstreams'})`);
      for (const line of notServing((await api.status({})).upstreams)) io.err(line);
    }
    return 0;
  });
}
