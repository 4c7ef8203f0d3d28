// Upstream text as it may be shown (shared/plainText.ts): bidi controls and control characters but tab
// and newline are gone, at ingestion (upstream/toolList.ts), in the window's cards and in the CLI.
import { describe, expect, it } from 'vitest';
import type { Tool } from '@modelcontextprotocol/client';
import { hasUnsafeText, plainText } from '../../../src-main/shared/plainText.js';
import { plainTool } from '../../../src-main/core/upstream/toolList.js';
import { printable, shellLine } from '../../../src-main/core/printable.js';
import { brief as cliBrief } from '../../../src-main/cli/table.js';

// The window's helpers are checked by the renderer's own tsconfig (its imports carry no extensions), so
// they are loaded here by path, with the types this test relies on.
type CardText = {
  brief: (t: string) => string;
  argsText: (a: Record<string, unknown>) => string;
  errorText: (e: unknown) => string;
};
const RENDERER_FORMAT = '../../../src-renderer/src/lib/format.ts';

const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];

describe('plainText', () => {
  it('drops every bidi control and every C0/C1 control but tab and newline', () => {
    for (const c of BIDI) {
      expect(plainText(`a${c}b`), c.codePointAt(0)!.toString(16)).toBe('ab');
      expect(hasUnsafeText(c)).toBe(true);
    }
    expect(plainText('a\u0000\u0007\u001b[2J\r\n\u007f\u0085\u009bb\tc')).toBe('a[2J\nb\tc');
    expect(plainText('Déjà vu — 日本語, العربية, 😀\n')).toBe('Déjà vu — 日本語, العربية, 😀\n');
    expect(hasUnsafeText('plain\ttext\n')).toBe(false);
  });

  it('leaves a tool without such text as the same object, and cleans title, description and annotations.title', () => {
    const clean: Tool = { name: 't', description: 'd', inputSchema: { type: 'object' } };
    expect(plainTool(clean)).toBe(clean);
    const hostile: Tool = {
      name: 't',
      title: 'Safe \u202eeteled\u202c',
      description: 'Reads.\u202e sdaeR',
      inputSchema: { type: 'object' },
      annotations: { title: '\u2067x\u2069', readOnlyHint: true },
    };
    expect(plainTool(hostile)).toEqual({
      name: 't',
      title: 'Safe eteled',
      description: 'Reads. sdaeR',
      inputSchema: { type: 'object' },
      annotations: { title: 'x', readOnlyHint: true },
    });
  });
});

describe('where text is shown', () => {
  it("the window's card helpers show plain text (description, arguments, error sentences)", async () => {
    const { brief, argsText, errorText } = (await import(/* @vite-ignore */ RENDERER_FORMAT)) as CardText;
    expect(brief('Deletes \u202eall\u202c files')).toBe('Deletes all files');
    expect(argsText({ path: 'a\u202eb' })).toBe('{\n  "path": "ab"\n}');
    expect(errorText(new Error('upstream said \u202eno'))).toBe('upstream said no');
  });

  it('the CLI escapes bidi controls in what it prints and shows descriptions plain', () => {
    expect(printable('evil\u202egnp.exe')).toBe('evil\\u202egnp.exe');
    expect(printable('a\u2066b\u200fc')).toBe('a\\u2066b\\u200fc');
    expect(shellLine(['npx', 'x\u202ey'])).toBeUndefined();
    expect(cliBrief('Reads \u202ethe\u202c mail.')).toBe('Reads the mail.');
  });
});
