// The desktop shell sees the core through EmbeddedCore (src-main/desktop/embeddedCore.ts), the one file
// that builds the App; every other shell file works from that narrow interface, and the files the Node
// tests load (the pure models) import neither electron nor electron-store.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../helpers/processes.js';

const DIR = join(ROOT, 'src-main/desktop');
const IMPORT = /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const imports = (file: string) => [...readFileSync(join(DIR, file), 'utf8').matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? '');
const shellFiles = readdirSync(DIR).filter((f) => f.endsWith('.ts'));

/** Pure models and helpers: unit-tested in plain Node, so Electron must not be reachable from them. */
const NODE_ONLY = ['notices.ts', 'trayMenu.ts', 'prefs.ts', 'prefsMigration.ts', 'settingsBridge.ts', 'windowPlace.ts', 'embeddedCore.ts'];

describe('the desktop shell and the core', () => {
  it('only embeddedCore.ts reaches for the App or the core config beyond loading it', () => {
    const offenders = shellFiles.filter((f) => f !== 'embeddedCore.ts').flatMap((f) => imports(f).filter((s) => /core\/app\.js$|core\/(upstream|proxy|search|workingset|toolbox)\//.test(s)).map((s) => `${f} → ${s}`));
    expect(offenders).toEqual([]);
  });

  it('keeps electron and electron-store out of the files the Node tests load', () => {
    expect(NODE_ONLY.every((f) => shellFiles.includes(f))).toBe(true);
    const offenders = NODE_ONLY.flatMap((f) => imports(f).filter((s) => s === 'electron' || s === 'electron-store').map((s) => `${f} → ${s}`));
    expect(offenders).toEqual([]);
  });

  it('has no file named core.ts: "core" is src-main/core', () => {
    expect(shellFiles).not.toContain('core.ts');
  });
});
