// `mws search "<query>"`: what search_tools answers a model, from the running instance, or from the
// configured upstreams when none runs. A table for people; --json for the reply itself.
import { DEFAULT_AGENT_ID } from '../../core/config/schema.js';
import type { ConfigFlags } from '../config.js';
import { cliConfigLater } from '../configLater.js';
import { withControl } from '../instance.js';
import type { ControlApi } from '../../core/control/api.js';
import { brief, kindOf, plural, table } from '../table.js';
import type { Io } from '../output.js';
import { notServing } from '../upstreamNotes.js';

export type SearchFlags = ConfigFlags & {
  query: string | undefined;
  agent: string | undefined;
  json: boolean;
  limit: number | undefined;
  explain?: boolean;
};

type Hit = { name: string; promoted?: boolean; readOnlyHint?: boolean; destructiveHint?: boolean; description?: string };
type Reply = {
  results?: Hit[];
  /** A query that is a tool's exact name: that tool with its whole schema. */
  tool?: Hit & { inputSchema?: unknown };
  catalog?: Record<string, string[]>;
  message?: string;
  more?: string;
  total?: number;
  backend?: string;
};

export function searchTable(reply: Reply): string {
  const lines: string[] = [];
  if (reply.catalog) {
    lines.push(`${plural(reply.total ?? 0, 'tool')} by backend (* = listed for this agent):`);
    for (const [backend, names] of Object.entries(reply.catalog)) lines.push(`  ${backend} (${names.length}): ${names.join(', ')}`);
    return lines.join('\n');
  }
  if (reply.tool) {
    const t = reply.tool;
    lines.push(`${t.name} (${kindOf(t)}${t.promoted ? ', listed' : ''})`);
    if (t.description) lines.push(`  ${brief(t.description, 400)}`);
    const props =
      (t.inputSchema as { properties?: Record<string, { type?: unknown; description?: unknown }> } | undefined)?.properties ?? {};
    const required = new Set(((t.inputSchema as { required?: unknown } | undefined)?.required as string[] | undefined) ?? []);
    if (Object.keys(props).length)
      lines.push(
        table(
          ['argument', 'type', 'required', 'description'],
          Object.entries(props).map(([k, v]) => [
            k,
            String(v.type ?? ''),
            required.has(k) ? 'yes' : '',
            brief(String(v.description ?? '')),
          ]),
        ),
      );
    else lines.push('  (no arguments)');
    return lines.join('\n');
  }
  const hits = reply.results ?? [];
  if (reply.backend) lines.push(`Backend ${reply.backend}: ${plural(reply.total ?? hits.length, 'tool')}.`);
  if (hits.length)
    lines.push(
      table(
        ['#', 'tool', 'kind', 'listed', 'description'],
        hits.map((h, i) => [i + 1, h.name, kindOf(h), h.promoted ? 'yes' : '', brief(h.description)]),
      ),
    );
  if (reply.message) lines.push(reply.message);
  if (reply.more) lines.push(reply.more);
  return lines.join('\n');
}

export async function runSearch(io: Io, flags: SearchFlags): Promise<number> {
  const config = await cliConfigLater(flags);
  const agent = flags.agent ?? DEFAULT_AGENT_ID;
  return withControl(config, async ({ api, source }) => {
    // Run here (no instance), the model reads the tools now (from the state folder's cache when a serve
    // left one), so the answer is the one a running instance gives once it has; bounded, else by words.
    if (source !== 'running instance' && flags.query) await modelReady(api);
    const { text, bytes, explain } = await api.search({
      agent,
      ...(flags.query ? { query: flags.query } : {}),
      ...(flags.limit ? { limit: flags.limit } : {}),
      ...(flags.explain ? { explain: true } : {}),
    });
    if (flags.json) {
      io.out(
        JSON.stringify({
          agent,
          query: flags.query ?? '',
          source,
          bytes,
          reply: JSON.parse(text) as unknown,
          ...(explain ? { explain } : {}),
        }),
      );
    } else if (flags.explain && explain) {
      // One line per hit: its score, then each query word and the fields it matched (learned words included).
      for (const [i, h] of explain.entries()) {
        io.out(`${String(i + 1).padStart(2)}. ${h.tool}  (score ${h.score})`);
        for (const m of h.matches) io.out(`      ${m.word}${m.via === 'word' ? '' : ` (${m.via})`}: ${m.fields.join(', ')}`);
      }
      io.err(
        `(${explain.length} hits explained, from ${source === 'running instance' ? 'the running instance' : 'the configured upstreams'})`,
      );
    } else {
      io.out(searchTable(JSON.parse(text) as Reply));
      io.err(
        `(the model's reply is ${bytes} bytes; from ${source === 'running instance' ? 'the running instance' : 'the configured upstreams'}; --json prints it)`,
      );
      for (const line of notServing(await api.upstreams({}))) io.err(line);
    }
    return 0;
  });
}

/** How long a one-off search waits for the model to read every tool before answering by words alone. */
const MODEL_WAIT_MS = 120_000;

async function modelReady(api: ControlApi): Promise<void> {
  await api.search({ agent: DEFAULT_AGENT_ID, query: 'warm up' }); // the first search starts the model
  const end = Date.now() + MODEL_WAIT_MS;
  for (;;) {
    const state = (await api.status({})).semanticSearch?.state ?? 'off';
    if (state === 'ready' || state === 'off' || Date.now() > end) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}
