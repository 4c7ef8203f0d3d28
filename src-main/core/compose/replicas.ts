// What another replica changed, applied here: a working set (read again and heard by this replica's
// clients), a grant (the calls waiting for it go on), the config, and what its searches learned.
// After a lost connection to the store, everything is read again.
import { after } from '../clock.js';
import type { ConfigEditor } from '../config/editor.js';
import type { SearchLearning } from '../search/learning.js';
import type { StateStore } from '../statestore/port.js';
import type { ToolboxCatalog } from '../toolbox/merge.js';
import type { AppContext } from './context.js';
import type { SetsPart } from './sets.js';

/** Reads of another replica's change tried at most, this far apart times the attempt (1 s, 2 s, …). */
const REMOTE_RELOAD_ATTEMPTS = 6;
const REMOTE_RELOAD_RETRY_MS = 1_000;

/** Follows the shared store's changes; answers how to stop. */
export function followReplicas(
  shared: StateStore,
  ctx: AppContext,
  parts: { setsPart: SetsPart; catalog: ToolboxCatalog; editor: ConfigEditor; learning: SearchLearning; stopped: () => boolean },
): () => void {
  const { log, clock, events } = ctx;
  const { sets, gate } = parts.setsPart;
  /**
   * A read that fails (the database slow or away for a moment) is tried again: the notice will not
   * come again, and without the read this replica would list the old set until the next change to that agent.
   */
  const applyRemote = (ids: string[], attempt: number): void => {
    void sets
      .reloadAgents(ids)
      .then(() => {
        // A grant made on another replica releases the calls waiting for it here.
        for (const id of ids)
          for (const tool of gate.releaseGranted(id, (t) => parts.catalog.toolbox().get(t)))
            events.emit({ type: 'approvalDecided', agent: id, tool });
      })
      .catch((err: Error) => {
        const again = !parts.stopped() && attempt < REMOTE_RELOAD_ATTEMPTS;
        log.warn(`could not apply another replica's working-set change: ${err.message}${again ? '; trying again' : ''}`);
        if (!again) return;
        after(clock, REMOTE_RELOAD_RETRY_MS * attempt, () => applyRemote(ids, attempt + 1));
      });
  };
  return shared.onChange((change) => {
    const ids = change.kind === 'agent' ? [change.agent] : change.kind === 'resync' ? ctx.config.agents.map((a) => a.id) : [];
    if (ids.length) applyRemote(ids, 1);
    if (change.kind === 'resync') void parts.editor.refresh();
    // What another replica's searches taught (or a forget) applies to this replica's ranking too.
    if (change.kind === 'learning' || change.kind === 'resync')
      void parts.learning.pull().catch((err: Error) => log.warn(`could not read what other replicas' searches learned: ${err.message}`));
  });
}
