// Two-task queries: "find the invoice and email it to Ana" asks for two tools. A query is split at
// "and", "also", "," only where each side has its own action of a different class (see intent.ts),
// so "salt and pepper" or "open and read the mail" stay one task; "then" and ";" always mark a new
// task ("read the config, then commit it to github"), as long as each side has a content word.
import { queryAction } from './intent.js';
import { isStopWord, splitWords } from './text.js';

/** At most this many tasks are taken from one query. */
const MAX_TASKS = 3;
const SEPARATORS = /\s*(;|,\s*(?:and\s+)?then\b|\band\s+then\b|\bthen\b|,|\band\b|\balso\b)\s*/i;
const STRONG = /^(?:;|,\s*(?:and\s+)?then|and\s+then|then)$/i;

/** The tasks a query names, when it names more than one; else undefined. */
export function splitTasks(query: string): string[] | undefined {
  // split() with a capturing group: text, separator, text, separator, …
  const pieces = query.split(SEPARATORS);
  const tasks: Array<{ text: string; action: string | undefined }> = [];
  for (let i = 0; i < pieces.length; i += 2) {
    const p = pieces[i]!.trim();
    const words = splitWords(p, false);
    if (!words.some((w) => !isStopWord(w))) continue;
    const action = queryAction(words);
    const strong = i > 0 && STRONG.test(pieces[i - 1]!.trim());
    const prev = tasks[tasks.length - 1];
    // Merge a part without an action of its own into the one before it ("find the invoice and the receipt").
    if (prev && !strong && (!action || action === prev.action)) prev.text += ` ${p}`;
    else tasks.push({ text: p, action });
  }
  if (tasks.length < 2) return undefined;
  // Without a "then" or ";", each task must name its action.
  if (!/;|\bthen\b/i.test(query) && tasks.some((t) => !t.action)) return undefined;
  return tasks.slice(0, MAX_TASKS).map((t) => t.text);
}
