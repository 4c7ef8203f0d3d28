// Search: what was learned from searches and calls, the tool vectors (semantic search) and the
// search service over the current toolbox.
import { SearchService } from '../search/service.js';
import { SearchLearning } from '../search/learning.js';
import { learningPolicy } from '../search/learningScope.js';
import { transcriptLearner } from '../search/transcriptPairs.js';
import { ToolVectors, vectorOfQuery } from '../search/embed/toolVectors.js';
import { loadEmbedder } from '../search/embed/loadEmbedder.js';
import { defaultModelDir } from '../search/embed/modelFiles.js';
import type { ToolboxCatalog } from '../toolbox/merge.js';
import type { AppContext } from './context.js';
import type { Stores } from './stores.js';

export type SearchPart = { learning: SearchLearning; vectors: ToolVectors; search: SearchService };

export function buildSearch(ctx: AppContext, stores: Stores, catalog: ToolboxCatalog, modelDir: string | undefined): SearchPart {
  const { log } = ctx;
  const learning = new SearchLearning({
    stateDir: ctx.config.stateDir,
    now: ctx.now,
    enabled: () => ctx.config.search?.learn !== false,
    // Agents behind tokens learn on their own unless the user shares (search.shareLearning).
    policy: () => learningPolicy({ agents: ctx.config.agents, shareLearning: ctx.config.search?.shareLearning }),
    log,
    // A learned pair keeps its query's vector (queryMemory.ts): from the query cache, or embedded then.
    vectorOf: (q) => vectorOfQuery(vectors, q),
    ...(stores.learningFeed ? { feed: stores.learningFeed } : {}),
  });
  let chosenDir: string | undefined;
  const vectors = new ToolVectors({
    stateDir: ctx.config.stateDir,
    log,
    entries: () => [...catalog.toolbox().all()],
    // The config's model (search.model) from the shipped ones, unless the caller names a folder: chosen
    // at the first load and kept, so the model started again after an idle spell is the one the vectors
    // were made with (another one waits for a restart, as the window says).
    load: () => loadEmbedder({ log, modelDir: (chosenDir ??= modelDir ?? defaultModelDir(ctx.config.search?.model)) }),
  });
  // Hybrid (words and meaning) once the model has read every tool; until then, or if it cannot load, by words.
  const search = new SearchService(() => catalog.toolbox(), ctx.config.searchAliases, 'hybrid', learning, vectors);
  // Claude Code transcripts, read by the usage cycle, also teach which tool a search led to.
  stores.usage.onTranscriptLine = transcriptLearner(
    learning,
    () => ctx.config.serverName,
    (name) => catalog.toolbox().resolve(name)?.name ?? name,
  );
  return { learning, vectors, search };
}
