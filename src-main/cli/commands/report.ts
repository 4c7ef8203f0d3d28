// `mws report`: per agent, what is listed and what it costs against listing everything, calls and
// searches by tool, and the history by cause.
import type { ConfigFlags } from '../config.js';
import { cliConfigLater } from '../configLater.js';
import { withControl } from '../instance.js';
import { ago, kindOf, plural, table } from '../table.js';
import type { Io } from '../output.js';
import { notServing } from '../upstreamNotes.js';
import { listedWords, listingWords, META_TOOL_COUNT, thousands, unlistedWords, wholeListingWords } from '../../shared/countWords.js';

const CAUSE: Record<string, string> = {
  agent: 'the agent',
  user: 'you',
  usage: 'usage',
  pin: 'pins',
  idle: 'the idle window',
  cap: 'the cap',
  revoked: 'upstream loss',
};

export async function runReport(io: Io, f: ConfigFlags & { agent: string | undefined; json: boolean }): Promise<number> {
  return withControl(await cliConfigLater(f), async ({ api, resultJson }) => {
    const args = f.agent ? { agent: f.agent } : {};
    if (f.json) {
      // As the instance wrote it: 100 agents' report is ~5 MB, not worth parsing only to print again.
      if (!resultJson) io.out(JSON.stringify(await api.report(args)));
      else if (io.outBytes) io.outBytes(await resultJson('report', args));
      else io.out((await resultJson('report', args)).toString('utf8'));
      return 0;
    }
    const reports = await api.report(args);
    const upstreams = await api.upstreams({});
    for (const line of notServing(upstreams)) io.out(line);
    for (const r of reports) {
      const pct = r.toolboxTokens ? ((r.listedTokens / r.toolboxTokens) * 100).toFixed(1) : '0';
      // The same words as the window and the tray (shared/countWords.ts): the toolbox never counts the meta-tools.
      const size = r.listedTools - META_TOOL_COUNT;
      const unlisted = unlistedWords(r.listed.filter((m) => !m.available).length);
      io.out(
        `Agent ${r.agent} (${r.name}): ${listedWords(size, r.cap)}, idle window ${plural(r.idleWindowDays, 'day')}${unlisted ? `; ${unlisted}` : ''}`,
      );
      io.out(
        `  listing ${listingWords(size)}: ${thousands(r.listedTokens)} tokens, against ${thousands(r.toolboxTokens)} tokens for the whole toolbox, ${wholeListingWords(r.toolboxTools, upstreams)} (${pct}%)`,
      );
      if (r.listed.length) {
        io.out(
          table(
            ['  tool', 'kind', 'promoted by', 'when', 'last used'],
            r.listed.map((m) => [
              `  ${m.tool}${m.available ? '' : m.pinned ? ' (pinned, but no upstream lists a tool by this name)' : ' (not listed upstream now)'}`,
              m.available ? kindOf(m) : '—',
              m.pinned ? `pin (${m.pinned})` : m.promotedBy,
              ago(m.promotedAt),
              ago(m.lastUsedAt),
            ]),
          ),
        );
      }
      io.out(
        `  ${plural(
          r.calls.reduce((a, c) => a + c.ok + c.failed, 0),
          'call',
        )}, ${plural(r.searches, 'search', 'searches')}`,
      );
      if (r.droppedCallRecords)
        io.out(
          `  ${plural(r.droppedCallRecords, 'call record')} could not be written since the instance started (the state folder's disk was full or unwritable): not counted above.`,
        );
      if (r.calls.length)
        io.out(
          table(
            ['  tool', 'ok', 'failed'],
            r.calls.slice(0, 15).map((c) => [`  ${c.tool}`, c.ok, c.failed]),
          ),
        );
      const causes = Object.entries(r.history);
      io.out(
        `  history: ${causes.length ? causes.map(([cause, n]) => `${plural(n!.promote, 'promotion')} and ${plural(n!.demote, 'demotion')} by ${CAUSE[cause] ?? cause}`).join('; ') : 'nothing yet'}`,
      );
      io.out('');
    }
    return 0;
  });
}
