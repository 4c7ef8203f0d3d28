// A config.json kept as a symlink (into a dotfiles repository, say) stays a link when Working Set saves
// an edit: the edit lands in the file it points at. State files are another matter (they never follow a
// link: test/unit/secrets/secretsAttack.test.ts).
import { describe, expect, it } from 'vitest';
import { lstatSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigEditor } from '../../../src-main/core/config/editor.js';
import { MemoryLogger } from '../../../src-main/core/log.js';

describe('a config.json that is a symlink', () => {
  it('is edited at its target, and stays a link', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mws-link-'));
    const target = join(dir, 'dotfiles-config.json');
    const link = join(dir, 'config.json');
    const raw = { stateDir: join(dir, 'state'), upstreams: {} };
    writeFileSync(target, JSON.stringify(raw));
    symlinkSync(target, link);
    const editor = new ConfigEditor(link, raw, join(dir, 'state'), async () => {}, new MemoryLogger());
    await editor.update((r) => {
      r.compactDescriptions = true;
    });
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(target, 'utf8'))).toMatchObject({ compactDescriptions: true });
  });
});
