// What the config editor says when it cannot take an edit: a broken file refuses the edit with a
// sentence that says nothing was saved, while a reload of the same broken file only says the running
// settings stay; and a flood of edits past the waiting bound is refused at once, not queued.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigEditor, MAX_WAITING_EDITS } from '../../../src-main/core/config/editor.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import { withDeadline } from '../../helpers/wait.js';

function editorOn(apply: () => Promise<void> = async () => {}) {
  const dir = mkdtempSync(join(tmpdir(), 'mws-editor-'));
  const path = join(dir, 'config.json');
  const raw = { stateDir: join(dir, 'state'), upstreams: {} };
  writeFileSync(path, JSON.stringify(raw));
  const log = new MemoryLogger();
  return { path, log, editor: new ConfigEditor(path, raw, join(dir, 'state'), apply, log) };
}

describe('the config editor refusing', () => {
  it('refuses an edit of a file that is not JSON, saying the change was not saved; a reload says the settings stay', async () => {
    const { path, log, editor } = editorOn();
    writeFileSync(path, '{ "upstreams": {}, ');
    await expect(editor.update((r) => void (r.compactDescriptions = true))).rejects.toThrow(
      /is not valid JSON now \(.*\)\. The change was not saved: fix the file, then try again\./,
    );
    await editor.refresh();
    const warned = log.lines.join('\n');
    expect(warned).toMatch(/not valid JSON now \(.*\)\. The running settings are unchanged\./);
    expect(warned).not.toMatch(/not saved/);
  });

  it('answers one edit past the waiting bound at once with busy, and takes the rest in turn', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const { editor } = editorOn(() => held);
    const waiting = Array.from({ length: MAX_WAITING_EDITS }, (_, i) => editor.update((r) => void (r.compactDescriptions = i % 2 === 0)));
    await expect(editor.update((r) => void (r.compactDescriptions = true))).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/busy/),
    });
    release();
    await withDeadline(Promise.all(waiting), 'the waiting edits to be applied', 10_000);
    await expect(editor.update((r) => void (r.compactDescriptions = false))).resolves.toBeTruthy();
  });
});
