// The ControlApi the window, the tray and the CLI work through, over the app's parts, and the
// toolbox's token count it keeps ahead of the first report.
import { createControl, type ControlParts } from '../control/methods.js';
import type { ControlApi } from '../control/api.js';
import { ToolboxCosts } from '../control/report/toolboxCosts.js';
import { fullCollector } from '../http/garbage.js';
import { metaTools } from '../metaTools/definitions.js';
import type { ConfigEditor } from '../config/editor.js';
import type { UiSessions } from '../http/uiSessions.js';
import type { StateStore } from '../statestore/port.js';
import type { AppContext } from './context.js';
import type { Stores } from './stores.js';

/** What the control methods work on besides the stores (the app's parts as its callers see them). */
export type ShownParts = Pick<ControlParts, 'catalog' | 'router' | 'search' | 'vectors' | 'sets' | 'gate' | 'events'>;

export function buildControl(
  ctx: AppContext,
  stores: Stores,
  parts: ShownParts,
  o: { editor: ConfigEditor; ui: UiSessions; configPath: string | null; shared: StateStore | undefined },
): { control: ControlApi; costs: ToolboxCosts } {
  const { log, clock } = ctx;
  // The whole toolbox is counted in the background once it settles, so the first report is quick.
  const costs = new ToolboxCosts({
    stateDir: ctx.config.stateDir,
    toolbox: () => parts.catalog.toolbox(),
    compact: () => ctx.config.compactDescriptions,
    metaTools: () => metaTools(ctx.config.backendHints),
    clock,
    failed: (err) => log.warn(`counting the toolbox's tokens ahead of a report failed: ${err.message}`),
    // Seconds of allocation no request made (a new toolbox's 5,000 definitions): the idle watch never
    // sees it, and V8 keeps the pages it grew into.
    counted: () => fullCollector.drained(),
  });
  ctx.toolboxChanged.push(() => costs.changed());
  const shared = o.shared;
  const control = createControl({
    costs,
    // Read at each use: reconfigure replaces it.
    get config() {
      return ctx.config;
    },
    clock,
    ...parts,
    usage: stores.usage,
    baseUrl: () => ctx.baseUrl,
    editor: o.editor,
    configPath: o.configPath,
    runtime: ctx.runtime,
    uiToken: () => o.ui.link(),
    uiRevokeAll: () => o.ui.revokeAll(),
    secrets: stores.secrets,
    droppedCallRecords: (agent) => stores.recorder.droppedRecords(agent),
    // The window's and `mws activity`'s log is the fleet's when the calls are shared.
    ...(shared ? { recentCalls: (q: { agent?: string; limit?: number }) => shared.calls.recent(q) } : {}),
  });
  return { control, costs };
}
