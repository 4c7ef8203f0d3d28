// The verb/object structure of tool names: `backend_verb_object`. A query's first action word is
// put in a class (create, get, list, search, update, delete, send, share) and tools whose name verb
// is in the same class rank higher. Classes, not words, so "drop the retro" finds `delete_event`.
import { stem } from './text.js';

export type Action = 'create' | 'get' | 'list' | 'search' | 'update' | 'delete' | 'send' | 'share';

const CLASSES: Record<Action, string[]> = {
  create: [
    'create',
    'make',
    'add',
    'new',
    'build',
    'compose',
    'schedule',
    'book',
    'setup',
    'start',
    'upload',
    'save',
    'write',
    'draft',
    'plan',
    'generate',
    'insert',
    'register',
  ],
  get: [
    'get',
    'read',
    'fetch',
    'open',
    'view',
    'see',
    'inspect',
    'detail',
    'details',
    'retrieve',
    'download',
    'show',
    'load',
    'examine',
    'export',
    'who',
  ],
  list: ['list', 'enumerate', 'browse', 'what', 'which', 'any', 'anything', 'inbox', 'agenda', 'all'],
  search: ['search', 'find', 'lookup', 'locate', 'query', 'grep', 'look', 'where'],
  update: [
    'update',
    'edit',
    'change',
    'modify',
    'move',
    'rename',
    'reschedule',
    'postpone',
    'push',
    'shift',
    'replace',
    'overwrite',
    'set',
    'apply',
    'mark',
    'flag',
    'tag',
    'enable',
    'disable',
  ],
  delete: ['delete', 'remove', 'drop', 'erase', 'trash', 'cancel', 'discard', 'destroy', 'wipe', 'purge', 'rid', 'close'],
  send: ['send', 'email', 'mail', 'notify', 'tell', 'message', 'post', 'forward', 'reply'],
  share: ['share', 'grant', 'let', 'allow', 'give', 'invite', 'permission', 'access', 'collaborate'],
};

/** Words ending in -ed that are still base forms or nouns. */
const BASE_FORMS = new Set(['need', 'feed', 'embed', 'shred', 'speed', 'seed', 'bed']);

const BY_STEM = new Map<string, Action>();
for (const [action, words] of Object.entries(CLASSES) as Array<[Action, string[]]>) {
  for (const w of words) if (!BY_STEM.has(stem(w))) BY_STEM.set(stem(w), action);
}

/** The action class of a word, if it names one. */
export function actionOf(word: string): Action | undefined {
  return BY_STEM.get(stem(word.toLowerCase()));
}

/** The first action word of a query (its main verb, in imperative queries). */
export function queryAction(words: string[]): Action | undefined {
  return queryActionWord(words)?.action;
}

/** The first action word of a query and its class. */
export function queryActionWord(words: string[]): { word: string; action: Action } | undefined {
  for (const w of words) {
    // Past participles describe what to look for ("pdfs I edited"), not what to do.
    if (w.length > 4 && w.endsWith('ed') && !BASE_FORMS.has(w)) continue;
    const a = actionOf(w);
    if (a) return { word: w, action: a };
  }
  return undefined;
}
