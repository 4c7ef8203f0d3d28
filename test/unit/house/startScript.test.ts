// `npm start` without the Electron binary says so in a sentence with the headless way to run, instead
// of electron-vite's "Error: Electron uninstall". It only looks for the binary: nothing downloads.
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT } from '../../helpers/processes.js';
// @ts-expect-error: a plain .mjs script without types
import { electronBinary, HEADLESS_HINT } from '../../../scripts/start.mjs';

type Found = { ok: boolean; why?: string; path?: string };
const find = electronBinary as (env: Record<string, string>, resolve: (id: string) => string) => Found;

describe('npm start', () => {
  it('finds the binary from electron/path.txt, or says which part is missing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mws-electron-'));
    const resolve = () => join(dir, 'package.json');
    expect(find({}, resolve)).toMatchObject({ ok: false, why: expect.stringMatching(/Electron binary is not installed/) });
    writeFileSync(join(dir, 'path.txt'), 'electron');
    expect(find({}, resolve)).toMatchObject({ ok: false, why: expect.stringMatching(/binary is missing/) });
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'electron'), '');
    expect(find({}, resolve)).toEqual({ ok: true, path: join(dir, 'dist', 'electron') });
    expect(
      find({}, () => {
        throw new Error('not found');
      }),
    ).toMatchObject({ ok: false, why: expect.stringMatching(/npm install/) });
    expect(find({ ELECTRON_OVERRIDE_DIST_PATH: '/opt/e' }, resolve)).toEqual({ ok: true, path: '/opt/e' });
  });

  it('is what package.json runs, and on this machine (no binary) exits 1 with the next step', () => {
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start).toBe('node scripts/start.mjs');
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'start.mjs')], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: '' },
    });
    if (find({}, (id) => require.resolve(id, { paths: [ROOT] })).ok) return; // a machine with Electron opens the app
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('cannot open the desktop app');
    expect(r.stderr).toContain(HEADLESS_HINT);
    expect(r.stderr).not.toContain('Electron uninstall');
  });
});
