// Pins from Markdown front matter: files matching `pinFiles` globs (for example a skill's SKILL.md)
// may carry `working-set-pins: [tool_a, tool_b]` (or a YAML list under that key), read by `yaml`.
import { readFile } from 'node:fs/promises';
import { isPlainObject } from '../../shared/plainObject.js';

export const PIN_KEY = 'working-set-pins';

/** Front matter past this is not read: a pin list is a few lines, and YAML costs in its length. */
const MAX_FRONT_MATTER_CHARS = 64 * 1024;
/** YAML aliases expand: a few in a hostile file could make a huge list (the "billion laughs"). */
const YAML_OPTIONS = { uniqueKeys: false, maxAliasCount: 20, prettyErrors: false } as const;

type YamlParse = (typeof import('yaml'))['parseDocument'];

export async function pinsFromFrontMatter(text: string): Promise<string[]> {
  const m = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text.slice(0, MAX_FRONT_MATTER_CHARS));
  if (!m) return [];
  const block = m[1]!;
  // Loaded only for a file with front matter: most configs name no pin files, and `mws serve` listens sooner.
  const { parseDocument } = await import('yaml');
  // The whole front matter when it is valid YAML; else (a skill's description with a bare colon is
  // common) only the pins entry: its key line and the indented or "- " lines under it.
  const value =
    yamlValue(parseDocument, block, (doc) => (isPlainObject(doc) ? doc[PIN_KEY] : undefined)) ??
    yamlValue(parseDocument, pinEntry(block), (doc) => (isPlainObject(doc) ? doc[PIN_KEY] : undefined));
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return [
    ...new Set(
      items
        .filter((v) => typeof v === 'string' || typeof v === 'number')
        .map((v) => String(v).trim())
        .filter(Boolean),
    ),
  ];
}

function yamlValue(parseDocument: YamlParse, source: string, pick: (doc: unknown) => unknown): unknown {
  if (!source) return undefined;
  try {
    const doc = parseDocument(source, YAML_OPTIONS);
    if (doc.errors.length > 0) return undefined;
    return pick(doc.toJS({ maxAliasCount: YAML_OPTIONS.maxAliasCount }));
  } catch {
    return undefined;
  }
}

/** The lines of the `working-set-pins:` entry alone (the key at the start of a line). */
function pinEntry(block: string): string {
  const lines = block.split(/\r?\n/);
  const at = lines.findIndex((l) => l.startsWith(`${PIN_KEY}:`) || l.startsWith(`${PIN_KEY} :`));
  if (at < 0) return '';
  let end = at + 1;
  while (end < lines.length && /^(\s|-)/.test(lines[end]!)) end++;
  return lines.slice(at, end).join('\n');
}

/** Every pin named in the files the globs match. */
export async function readPinFiles(globs: string[]): Promise<string[]> {
  if (globs.length === 0) return [];
  // Loaded here, not with the module: tinyglobby (fdir, picomatch) would add to the time before
  // `mws serve` listens, and most configs name no pin files.
  const { glob } = await import('tinyglobby');
  const files = await glob(globs, { absolute: true, onlyFiles: true, dot: true });
  const pins = new Set<string>();
  for (const f of files.sort()) {
    try {
      for (const p of await pinsFromFrontMatter(await readFile(f, 'utf8'))) pins.add(p);
    } catch {
      // an unreadable file pins nothing
    }
  }
  return [...pins];
}
