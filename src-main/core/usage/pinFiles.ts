// Pins from Markdown front matter: files matching `pinFiles` globs (for example a skill's SKILL.md)
// may carry `working-set-pins: [tool_a, tool_b]` (or a YAML list under that key).
import { readFile } from 'node:fs/promises';

export const PIN_KEY = 'working-set-pins';

export function pinsFromFrontMatter(text: string): string[] {
  const m = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (!m) return [];
  const lines = m[1]!.split(/\r?\n/);
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const kv = new RegExp(`^${PIN_KEY}\\s*:\\s*(.*)$`).exec(lines[i]!);
    if (!kv) continue;
    const inline = kv[1]!.trim();
    if (inline.startsWith('[')) {
      out.push(...inline.replace(/^\[|\]$/g, '').split(',').map(unquote).filter(Boolean));
    } else if (inline) {
      out.push(unquote(inline));
    } else {
      for (let j = i + 1; j < lines.length; j++) {
        const item = /^\s*-\s*(.+)$/.exec(lines[j]!);
        if (!item) break;
        out.push(unquote(item[1]!));
      }
    }
  }
  return [...new Set(out)];
}

function unquote(s: string): string {
  return s.trim().replace(/^['"]|['"]$/g, '');
}

/** Every pin named in the files the globs match. */
export async function readPinFiles(globs: string[]): Promise<string[]> {
  if (globs.length === 0) return [];
  // Loaded here, not with the module: tinyglobby (fdir, picomatch) cost ~20 ms before `mws serve`
  // listened, and most configs name no pin files.
  const { glob } = await import('tinyglobby');
  const files = await glob(globs, { absolute: true, onlyFiles: true, dot: true });
  const pins = new Set<string>();
  for (const f of files.sort()) {
    try {
      for (const p of pinsFromFrontMatter(await readFile(f, 'utf8'))) pins.add(p);
    } catch {
      // an unreadable file pins nothing
    }
  }
  return [...pins];
}
