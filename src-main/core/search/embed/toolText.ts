// What of a tool the sentence model reads: its name as words, title, description and its parameters'
// names and descriptions — the fields an agent's request paraphrases.
import type { ToolEntry } from '../../toolbox/toolbox.js';
import { splitWords } from '../text.js';

/** Parameters read at most (a tool with hundreds of parameters says what it does in the first ones). */
const MAX_PARAMS = 24;

type Schema = { properties?: Record<string, { description?: unknown; title?: unknown } | undefined> };

export function toolText(entry: Pick<ToolEntry, 'remoteName' | 'tool'>): string {
  const t = entry.tool;
  const parts = [splitWords(entry.remoteName, false).join(' ')];
  if (typeof t.title === 'string' && t.title.trim()) parts.push(t.title.trim());
  if (typeof t.description === 'string' && t.description.trim()) parts.push(t.description.trim());
  const props = (t.inputSchema as Schema | undefined)?.properties;
  if (props && typeof props === 'object') {
    const params = Object.entries(props)
      .slice(0, MAX_PARAMS)
      .map(([name, p]) => {
        const d = typeof p?.description === 'string' ? p.description.trim() : typeof p?.title === 'string' ? p.title.trim() : '';
        const words = splitWords(name, false).join(' ');
        return d ? `${words} (${d})` : words;
      });
    if (params.length) parts.push(`Parameters: ${params.join(', ')}`);
  }
  return parts.join('. ').replace(/\s+/g, ' ');
}
