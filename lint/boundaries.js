// The import boundaries of src-main and the renderer, declared once as data and enforced by ESLint
// (import-x/no-restricted-paths, which checks the resolved file, so `../proxy/x.js`, `../../core/proxy/x.js`
// and `await import('../proxy/x.js')` are the same edge). test/unit/house/importBoundaries.test.ts proves the
// rule bites and that every core folder has a layer.
import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const CORE = 'src-main/core';

/**
 * Folders of src-main/core by layer, lowest first: data flows upstream → toolbox → search / working set →
 * proxy → control → http, and a folder imports only its own layer's declared neighbours and the layers below.
 * '.' is the files directly in core/ (leaf helpers: clock, errors, log…); app.ts is the composition root.
 */
export const LAYERS = [
  ['.', 'config', 'store', 'demo', 'secrets'],
  ['upstream'],
  ['toolbox'],
  ['search', 'workingset', 'approvals', 'usage', 'import'],
  // The state port and its adapters (statestore/): over the stores of the working sets, usage, secrets and sign-ins.
  ['metaTools', 'statestore'],
  ['proxy'],
  // observe/: health and metrics for operators, read from the parts below. operators/: people signing in
  // through the team's provider (its OAuth client, their kept sign-ins, /control's metadata).
  ['control', 'observe', 'operators'],
  // The HTTP edge (guard, listener, routes): control and proxy mount on it as plain handlers.
  ['http'],
  // The composition root's builders (core/compose/): only app.ts imports them.
  ['compose'],
];

/**
 * Imports between two folders of one layer, each allowed one way only, so two folders never import each
 * other (a folder cycle). Add an edge here when a new one is meant; the test checks the list has no cycle.
 */
export const SIDEWAYS = {
  config: ['store'],
  secrets: ['config', 'store'],
  workingset: ['usage'],
  operators: ['control'],
};

/** Files of core/ that wire every layer together; nothing in core imports them. */
export const COMPOSITION_ROOT = ['app.ts'];

/** What the renderer may import from src-main: the shared words and the control contract (types only). */
export const RENDERER_MAY_IMPORT = ['src-main/shared/**', 'src-main/core/control/contract*'];

/** Desktop files the Node tests load (pure models and helpers): Electron must not be reachable from them. */
export const DESKTOP_NODE_ONLY = [
  'notices.ts',
  'trayMenu.ts',
  'prefs.ts',
  'prefsMigration.ts',
  'settingsBridge.ts',
  'windowPlace.ts',
  'embeddedCore.ts',
];

/** The one desktop file that builds the App; the rest of the shell works from its narrow interface. */
export const DESKTOP_CORE_DOOR = 'embeddedCore.ts';

const abs = (p) => resolve(ROOT, p);
/** The resolver answers with real paths, so a linked node_modules (a worktree's, pnpm's) is followed here too. */
const real = (p) => {
  try {
    return realpathSync(abs(p));
  } catch {
    return abs(p);
  }
};
const ELECTRON = ['node_modules/electron', 'node_modules/electron-store'].map(real);
const dirOf = (folder) => (folder === '.' ? null : `${CORE}/${folder}`);

/** Zones for import-x/no-restricted-paths: `target` may not import `from`. Paths are absolute. */
export function boundaryZones() {
  const zones = [];
  const rank = new Map(LAYERS.flatMap((fs, i) => fs.map((f) => [f, i])));
  for (const [folder, i] of rank) {
    const above = [...rank].filter(([f, j]) => j > i || (j === i && f !== folder && !(SIDEWAYS[folder] ?? []).includes(f)));
    // '.' has no folder of its own: its files are core/*.ts (app.ts aside, which may import anything).
    const target =
      folder === '.' ? abs(`${CORE}/!(${COMPOSITION_ROOT.map((f) => f.replace(/\.ts$/, '')).join('|')}).ts`) : abs(dirOf(folder));
    const from = above
      .map(([f]) => dirOf(f))
      .filter((d) => d !== null)
      .map(abs);
    if (from.length === 0) continue;
    zones.push({
      target,
      from,
      message: `core/${folder} sits below these folders (layers, lowest first: ${LAYERS.map((l) => l.join(' ')).join(' → ')}; sideways edges in SIDEWAYS); see lint/boundaries.js.`,
    });
  }
  zones.push(
    {
      target: abs(CORE),
      from: COMPOSITION_ROOT.map((f) => abs(`${CORE}/${f}`)),
      message: 'app.ts is the composition root: it imports the layers, nothing in core imports it.',
    },
    {
      target: abs(`${CORE}/upstream`),
      from: [abs(`${CORE}/demo`)],
      message: 'upstream/ knows no built-in server: the app registers the demo.',
    },
    {
      target: [abs('src-main/core'), abs('src-main/shared')],
      from: ['src-main/cli', 'src-main/desktop', 'src-main/preload', ...ELECTRON].map(abs),
      message: 'The core runs in plain Node: only src-main/desktop (and the preload script) use Electron, and the core imports no shell.',
    },
    {
      target: abs('src-main/shared'),
      from: [abs(CORE)],
      message: 'src-main/shared is the leaf the renderer imports: it imports nothing from the core.',
    },
    {
      target: abs('src-main/cli'),
      from: ['src-main/desktop', 'src-main/preload', ...ELECTRON].map(abs),
      message: 'The CLI runs in plain Node: no Electron and no desktop shell.',
    },
    {
      target: DESKTOP_NODE_ONLY.map((f) => abs(`src-main/desktop/${f}`)),
      from: ELECTRON.map(abs),
      message: 'This desktop file is a pure model the Node tests load: keep electron and electron-store out of it.',
    },
    {
      target: abs(`src-main/desktop/!(${DESKTOP_CORE_DOOR.replace(/\.ts$/, '')}).ts`),
      from: [...COMPOSITION_ROOT, 'upstream', 'proxy', 'search', 'workingset', 'toolbox', 'http', 'compose'].map((f) =>
        abs(`${CORE}/${f}`),
      ),
      message: `Only desktop/${DESKTOP_CORE_DOOR} reaches for the App or the core's inner layers; the rest of the shell works from its interface.`,
    },
    {
      target: [abs('src-main/desktop'), abs('src-main/preload')],
      from: [abs('src-main/cli')],
      message: 'The desktop shell and the CLI are peers: neither imports the other.',
    },
    {
      target: abs('src-renderer'),
      from: [abs('src-main/**'), ...ELECTRON.map((d) => `${d}/**`)],
      except: RENDERER_MAY_IMPORT.map(abs),
      message:
        'The renderer sees the main process only through the control contract and src-main/shared (RENDERER_MAY_IMPORT in lint/boundaries.js).',
    },
  );
  return zones;
}
