// Sentence vectors for an offline evaluation (`mws eval --engine dense|hybrid`, CI): the tools' vectors
// through the same ToolVectors search uses (cached by definition in `cacheDir` when given), and each
// gold query's vector, computed once before ranking, so latency and ranking are measured apart.
import type { Toolbox } from '../../toolbox/toolbox.js';
import type { Logger } from '../../log.js';
import { ToolVectors } from '../embed/toolVectors.js';
import type { Embedder, EmbedderFailure } from '../embed/types.js';
import type { SemanticVectors } from '../denseIndex.js';

export type EvalVectors = {
  vectors: SemanticVectors;
  query: (q: string) => Float32Array | undefined;
  warning: string | undefined;
  stop: () => Promise<void>;
};

export async function evalVectors(
  toolbox: Toolbox,
  queries: string[],
  log: Logger,
  cacheDir?: string,
  load?: () => Promise<Embedder | EmbedderFailure>,
): Promise<EvalVectors> {
  const tv = new ToolVectors({ stateDir: cacheDir, log, ...(load ? { load } : {}) });
  tv.update([...toolbox.all()]);
  tv.activate();
  await tv.idle();
  const byQuery = new Map<string, Float32Array>();
  if (tv.ready()) {
    for (const q of new Set(queries)) {
      const v = await tv.embedQuery(q);
      if (v) byQuery.set(q, v);
    }
  }
  return { vectors: tv, query: (q) => byQuery.get(q), warning: tv.status().warning, stop: () => tv.stop() };
}
