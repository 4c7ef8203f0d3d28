// Config versions. A file carries `version`; one written before versions existed has none and is
// version 0. Reading a file migrates it step by step to CONFIG_VERSION, so every older file keeps
// loading; the next edit writes the migrated file back (with its version).

/** The config format this mws reads and writes. */
export const CONFIG_VERSION = 1;

type Raw = Record<string, unknown>;

/** Step `i` turns a version-`i` file into a version-`i + 1` one. Steps never throw: validation follows. */
const STEPS: ReadonlyArray<(raw: Raw) => Raw> = [
  // 0 → 1: the format of the files written before versions existed is version 1's; it gains the field,
  // first, so a reader of the file sees it at once.
  (raw) => {
    const { version: _old, ...rest } = raw;
    return { version: 1, ...rest };
  },
];

/**
 * The file migrated to CONFIG_VERSION (a new object; the argument is left as it is). A value that is not
 * an object, or a version that is not a whole number within range, is handed on unchanged for the
 * schema to refuse with a sentence.
 */
export function migrateConfig(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  let out = raw as Raw;
  const from = out.version === undefined ? 0 : out.version;
  if (typeof from !== 'number' || !Number.isInteger(from) || from < 0 || from >= CONFIG_VERSION) return raw;
  for (let v = from; v < CONFIG_VERSION; v++) out = STEPS[v]!(out);
  return out;
}
