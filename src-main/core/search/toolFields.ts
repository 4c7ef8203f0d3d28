// A tool's text as BM25F reads it (index.ts): its words per field.
import type { ToolEntry } from '../toolbox/toolbox.js';
import { splitWords } from './text.js';
import { DESCRIPTION_CHARS, PARAM_DESCRIPTION_CHARS } from './rankingWeights.js';

/** name, title, parameter names, parameter descriptions, description, backend. */
export type ToolFields = [string[], string[], string[], string[], string[], string[]];

/** The words of each field, in order: name, title, parameter names, parameter descriptions, description, backend. */
export function toolFields(e: ToolEntry, backendPrefixes: ReadonlySet<string>): ToolFields {
  const schema = e.tool.inputSchema as { properties?: Record<string, { description?: unknown; enum?: unknown }> };
  const props = Object.entries(schema.properties ?? {});
  // Enum values name what a tool can do ("commenter", "pdf", "declined"): they count with parameter names.
  const enumWords = props.flatMap(([, p]) =>
    Array.isArray(p?.enum) ? p.enum.filter((v): v is string => typeof v === 'string').flatMap((v) => splitWords(v)) : [],
  );
  const nameWords = splitWords(e.remoteName);
  const backend: string[] = e.name !== e.remoteName ? splitWords(e.vendor) : [];
  if (nameWords.length > 1 && backendPrefixes.has(nameWords[0]!)) backend.push(nameWords.shift()!);
  return [
    nameWords,
    splitWords(e.tool.title ?? ''),
    [...props.flatMap(([k]) => splitWords(k)), ...enumWords],
    // Parameter descriptions in full: they say what a tool acts on ("the pod's namespace").
    props.flatMap(([, p]) => (typeof p?.description === 'string' ? splitWords(p.description.slice(0, PARAM_DESCRIPTION_CHARS)) : [])),
    splitWords((e.tool.description ?? '').slice(0, DESCRIPTION_CHARS)),
    backend,
  ];
}
