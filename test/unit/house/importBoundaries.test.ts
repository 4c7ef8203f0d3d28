// The import boundaries live in ESLint (lint/boundaries.js, import-x/no-restricted-paths). These tests
// lint small sources placed, by file path, in the real folders, with the project's own config, so
// `npm test` proves the rule bites — an upward import, a folder cycle, Electron in the core, the renderer
// reaching into the core. Whether the tree keeps them is `npm run lint`'s answer (CI runs it first).
import { describe, expect, it } from 'vitest';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import { ROOT } from '../../helpers/processes.js';

type Boundaries = { LAYERS: string[][]; SIDEWAYS: Record<string, string[]> };
const { LAYERS, SIDEWAYS } = (await import(pathToFileURL(join(ROOT, 'lint/boundaries.js')).href)) as Boundaries;

// Only the import rules run: the rest of the lint is `npm run lint`'s business, not this test's.
const eslint = new ESLint({ cwd: ROOT, ruleFilter: ({ ruleId }) => ruleId.startsWith('import-x/') });

/** The import-rule messages ESLint gives `code` as if it were the file at `path` (relative to the root). */
async function lint(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, path) });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

const ts = (spec: string) => `import { x } from '${spec}';\nexport const y = x;\n`;

describe('the import boundaries (ESLint)', () => {
  it('refuses an import up the layers, however it is spelled', async () => {
    expect(await lint('src-main/core/toolbox/fixture.ts', ts('../proxy/toolRouter.js'))).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: Unexpected path "\.\.\/proxy\/toolRouter\.js".*core\/toolbox sits below/),
    ]);
    expect(await lint('src-main/core/toolbox/fixture.ts', `export const y = await import('../../core/control/api.js');\n`)).toHaveLength(1);
    expect(await lint('src-main/core/upstream/fixture.ts', `export type { Toolbox } from '../toolbox/toolbox.js';\n`)).toHaveLength(1);
    expect(await lint('src-main/core/fixture.ts', ts('./config/load.js'))).toHaveLength(1);
  });

  it('lets imports run down the layers', async () => {
    expect(await lint('src-main/core/proxy/fixture.ts', ts('../toolbox/toolbox.js'))).toEqual([]);
    expect(await lint('src-main/core/control/fixture.ts', ts('../../core/upstream/connection.js'))).toEqual([]);
    expect(await lint('src-main/core/toolbox/fixture.ts', ts('../clock.js'))).toEqual([]);
  });

  it('allows a sideways import only the way SIDEWAYS declares it, so two folders never import each other', async () => {
    expect(await lint('src-main/core/workingset/fixture.ts', ts('../usage/usageStore.js'))).toEqual([]);
    expect(await lint('src-main/core/usage/fixture.ts', ts('../workingset/types.js'))).toHaveLength(1);
    expect(await lint('src-main/core/search/fixture.ts', ts('../approvals/types.js'))).toHaveLength(1);
  });

  it('keeps the composition root unimported and the demo out of upstream/', async () => {
    expect(await lint('src-main/core/control/fixture.ts', ts('../app.js'))).toEqual([expect.stringContaining('composition root')]);
    expect(await lint('src-main/core/upstream/fixture.ts', ts('../demo/server.js'))).toEqual([
      expect.stringContaining('knows no built-in server'),
    ]);
  });

  it('keeps Electron and the shells out of the core, the CLI and the pure desktop models', async () => {
    expect(await lint('src-main/core/fixture.ts', ts('electron'))).toEqual([expect.stringContaining('plain Node')]);
    expect(await lint('src-main/core/control/fixture.ts', ts('electron-store'))).toHaveLength(1);
    expect(await lint('src-main/core/control/fixture.ts', ts('../../desktop/tray.js'))).toHaveLength(1);
    expect(await lint('src-main/cli/fixture.ts', ts('electron'))).toHaveLength(1);
    expect(await lint('src-main/cli/fixture.ts', ts('../desktop/notices.js'))).toHaveLength(1);
    expect(await lint('src-main/desktop/trayMenu.ts', ts('electron'))).toEqual([expect.stringContaining('pure model')]);
    expect(await lint('src-main/desktop/fixture.ts', ts('electron'))).toEqual([]);
    expect(await lint('src-main/preload/fixture.ts', ts('electron'))).toEqual([]);
  });

  it('lets only desktop/embeddedCore.ts reach for the App or the inner layers', async () => {
    expect(await lint('src-main/desktop/embeddedCore.ts', ts('../core/app.js'))).toEqual([]);
    expect(await lint('src-main/desktop/tray.ts', ts('../core/app.js'))).toHaveLength(1);
    expect(await lint('src-main/desktop/tray.ts', ts('../core/http/guard.js'))).toHaveLength(1);
    expect(await lint('src-main/desktop/tray.ts', ts('../core/control/api.js'))).toEqual([]);
  });

  it('lets the renderer import src-main/shared and the control contract, nothing deeper', async () => {
    expect(await lint('src-renderer/src/lib/fixture.ts', ts('../../../src-main/shared/time'))).toEqual([]);
    expect(await lint('src-renderer/src/lib/fixture.ts', ts('../../../src-main/core/control/contract'))).toEqual([]);
    expect(await lint('src-renderer/src/lib/fixture.ts', ts('../../../src-main/core/control/api'))).toEqual([
      expect.stringContaining('only through the control contract'),
    ]);
    expect(await lint('src-renderer/src/lib/fixture.ts', ts('../../../src-main/core/toolbox/toolbox'))).toEqual([
      expect.stringContaining('only through the control contract'),
    ]);
    expect(await lint('src-renderer/src/lib/fixture.ts', ts('../../../src-main/core/app'))).toHaveLength(1);
    const svelte = `<script lang="ts">\n  import { x } from '../../src-main/core/proxy/toolRouter';\n  console.log(x);\n</script>\n`;
    expect(await lint('src-renderer/src/Fixture.svelte', svelte)).toEqual([expect.stringContaining('only through the control contract')]);
    expect(await lint('src-main/shared/fixture.ts', ts('../core/log.js'))).toEqual([
      expect.stringContaining('imports nothing from the core'),
    ]);
  });

  it('names an import it cannot resolve, since the boundary rule could not judge it', async () => {
    expect(await lint('src-renderer/src/lib/fixture.ts', ts('../../../src-main/core/toolbox/nothingHere'))).toEqual([
      expect.stringMatching(/^import-x\/no-unresolved: /),
    ]);
  });

  it('every core folder has a layer, and SIDEWAYS stays within a layer and has no cycle', () => {
    const core = join(ROOT, 'src-main/core');
    const folders = readdirSync(core).filter((f) => statSync(join(core, f)).isDirectory());
    const placed = new Set(LAYERS.flat());
    expect(folders.filter((f) => !placed.has(f))).toEqual([]);
    const layerOf = new Map(LAYERS.flatMap((fs, i) => fs.map((f) => [f, i] as const)));
    for (const [from, tos] of Object.entries(SIDEWAYS))
      for (const to of tos) expect(layerOf.get(to), `${from} → ${to}`).toBe(layerOf.get(from));
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
      (SIDEWAYS[from] ?? []).some((n) => n === to || (!seen.has(n) && (seen.add(n), reaches(n, to, seen))));
    expect(Object.keys(SIDEWAYS).filter((f) => reaches(f, f))).toEqual([]);
  });
});
