// Two-task queries: "find the invoice and email it to Ana" asks for two tools. A query is split at
// "and", "then", ";" or ", " only where each side has its own action of a different class (see
// intent.ts), so "salt and pepper" or "open and read the mail" stay one task.
import { queryAction } from './intent.js';
import { splitWords } from './text.js';

/** At most this many tasks are taken from one query. */
const MAX_TASKS = 3;
const SEPARATORS = /\s*(?:;|,\s*(?:and\s+)?then\b|,|\band\s+then\b|\bthen\b|\band\b|\balso\b)\s*/i;

/** The tasks a query names, when it names more than one; else undefined. */
export function splitTasks(query: string): string[] | undefined {
  const parts = query.split(SEPARATORS).map((p) => p.trim()).filter((p) => p.length > 0);
  if (parts.length < 2) return undefined;
  // Merge a part without an action of its own into the one before it ("find the invoice and the receipt").
  const tasks: Array<{ text: string; action: string | undefined }> = [];
  for (const p of parts) {
    const action = queryAction(splitWords(p, false));
    const prev = tasks[tasks.length - 1];
    if (prev && (!action || action === prev.action)) prev.text += ` ${p}`;
    else tasks.push({ text: p, action });
  }
  if (tasks.length < 2 || tasks.some((t) => !t.action)) return undefined;
  return tasks.slice(0, MAX_TASKS).map((t) => t.text);
}
