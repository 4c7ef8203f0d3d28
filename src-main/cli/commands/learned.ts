// `mws learned`: the words search learned for each tool from search→call pairs (a table; --json), and
// `mws learned forget TOOL [WORD]` to drop them, through the running instance (or the state files when
// none runs), as the window does.
import type { ConfigFlags } from '../config.js';
import { cliConfigLater } from '../configLater.js';
import { withControl } from '../instance.js';
import { MwsError } from '../../core/errors.js';
import { plural, table } from '../table.js';
import type { Io } from '../output.js';

export type LearnedFlags = ConfigFlags & { agent: string | undefined; json: boolean; tool: string | undefined };

/** `mws learned [--tool NAME] [--agent ID]`: per tool, its learned words, heaviest first. */
export async function runLearned(io: Io, f: LearnedFlags): Promise<number> {
  const config = await cliConfigLater(f);
  return withControl(config, async ({ api }) => {
    const r = await api.learnedWords({ ...(f.tool ? { tool: f.tool } : {}), ...(f.agent ? { agent: f.agent } : {}) });
    if (f.json) {
      io.out(JSON.stringify(r));
      return 0;
    }
    if (!r.learning) io.err('Learning is off (search.learn: false in the config): search ranks without learned words and records none.');
    // With --tool the tool is listed even with nothing learned; without, every tool search ranks with
    // learned evidence, including one only a remembered request brings back (no word trusted yet).
    const rows = f.tool ? r.tools.filter((t) => t.words.length > 0) : r.tools;
    if (rows.length === 0) {
      io.out(
        f.tool
          ? `Nothing learned for ${r.tools[0]?.tool ?? f.tool} yet.`
          : 'Nothing learned yet: it comes from searches followed by a call.',
      );
      return 0;
    }
    io.out(
      table(
        ['tool', 'learned words (weight)'],
        rows.map((t) => [
          t.tool,
          t.words.length
            ? t.words.map((w) => `${w.word} (${w.weight})`).join(', ')
            : '(no word trusted yet; a request it answered is remembered)',
        ]),
      ),
    );
    io.err(
      `(${plural(rows.length, 'tool')}${f.agent ? `, as agent ${f.agent} sees them` : ''}; \`mws learned forget TOOL [WORD]\` forgets)`,
    );
    return 0;
  });
}

/** `mws learned forget TOOL [WORD]`: every learned word of a tool, or just one. */
export async function runForgetLearned(io: Io, f: LearnedFlags & { word: string | undefined }): Promise<number> {
  if (!f.tool)
    throw new MwsError(
      'usage',
      'mws learned forget needs a tool name: `mws learned forget TOOL [WORD]` (`mws learned` lists the tools with learned words).',
    );
  const config = await cliConfigLater(f);
  return withControl(config, async ({ api }) => {
    const r = await api.forgetLearned({ tool: f.tool!, ...(f.word !== undefined ? { word: f.word } : {}) });
    if (f.json) {
      io.out(JSON.stringify(r));
      return 0;
    }
    if (f.word !== undefined && r.forgotten === 0) {
      // A word that was not learned for the tool is most likely a typo: say which words there are.
      const words = (await api.learnedWords({ tool: r.tool })).tools[0]?.words.map((w) => w.word) ?? [];
      throw new MwsError(
        'not_found',
        `"${f.word}" is not a learned word of ${r.tool}; ${words.length ? `its learned words are: ${words.join(', ')}` : 'nothing is learned for it'}.`,
        { tool: r.tool, word: f.word, words },
      );
    }
    io.out(
      f.word !== undefined
        ? `Forgot "${f.word}" for ${r.tool} (${plural(r.forgotten, 'search', 'searches')} changed); its other learned words still count.`
        : r.forgotten
          ? `Forgot what ${r.tool} was learned for (${plural(r.forgotten, 'search', 'searches')}).`
          : `Nothing was learned for ${r.tool}.`,
    );
    return 0;
  });
}
