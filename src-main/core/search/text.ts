// Turning names, descriptions and queries into comparable terms: split, lowercase, drop stop words, stem.
import { stemmer } from 'stemmer';

/** Words that carry no meaning about which tool is wanted. */
const STOP = new Set(
  (
    'a an the to of for in on at by with from into onto about as and or but if then than so is are be been was were ' +
    'it its this that these those i me my mine we our you your he she they them their who whom whose ' +
    'do does did done can could would should will shall may might must please just also some any all each every ' +
    'there here when where how via using have has had want need like up out only own same very too called named'
  ).split(' '),
);

export function isStopWord(w: string): boolean {
  // Single letters are leftovers of contractions and possessives ("what's", "page's").
  if (w.length === 1) {
    const c = w.charCodeAt(0);
    return c < 48 || c > 57;
  }
  return STOP.has(w);
}

const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;

/** Letter-digit words up to this long are names in themselves (B2B, S3, EC2, i18n, utf8, v2): kept whole. */
const ACRONYM_MAX = 4;

/**
 * Splits an identifier or phrase into lowercase words: snake_case, camelCase, dots, dashes, and digits
 * at the edge of longer words (`oauth2` → oauth 2; `B2B` stays whole). Case is read before lowercasing,
 * so a camelCase name typed into a query splits as its tool's name does. ASCII text takes a hand loop
 * (indexing thousands of tools spends most of its time here); other scripts take the Unicode regex.
 */
export function splitWords(text: string, splitDigits = true): string[] {
  const out: string[] = [];
  let start = -1;
  let prev = 0;
  let mixed = false;
  const push = (end: number) => {
    const w = text.slice(start, end).toLowerCase();
    if (splitDigits && mixed && w.length > ACRONYM_MAX) out.push(...w.split(/(?<=[a-z])(?=\d)|(?<=\d)(?=[a-z])/));
    else out.push(w);
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128) return splitWordsUnicode(text, splitDigits);
    const k = c >= 97 && c <= 122 ? LOWER : c >= 65 && c <= 90 ? UPPER : c >= 48 && c <= 57 ? DIGIT : 0;
    if (k === 0) {
      if (start >= 0) push(i);
      start = -1;
    } else if (start < 0) {
      start = i;
      mixed = false;
    } else {
      const camel = k === UPPER && (prev === LOWER || (prev === DIGIT && i + 1 < text.length && isLowerAt(text, i + 1)));
      // "HTTPServer": the last capital of a run starts the next word when a lowercase letter follows.
      const acronymEnd = k === UPPER && prev === UPPER && i + 1 < text.length && isLowerAt(text, i + 1);
      if (camel || acronymEnd) {
        push(i);
        start = i;
        mixed = false;
      } else if ((k === DIGIT) !== (prev === DIGIT)) mixed = true;
    }
    prev = k;
  }
  if (start >= 0) push(text.length);
  return out;
}

function isLowerAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 97 && c <= 122;
}

function splitWordsUnicode(text: string, splitDigits: boolean): string[] {
  const spaced = text.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  const parts = spaced.toLowerCase().split(/[^\p{L}\p{N}]+/u);
  const edge = /(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;
  return parts.flatMap((p) => (p.length === 0 ? [] : splitDigits && p.length > ACRONYM_MAX ? p.split(edge) : [p]));
}

const stemCache = new Map<string, string>();

/** Porter2 stem for ASCII words; other scripts are kept as they are. */
export function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    s = /^[a-z]+$/.test(word) && word.length > 2 ? stemmer(word) : word;
    if (stemCache.size < 200_000) stemCache.set(word, s);
  }
  return s;
}

/** Content terms of a text: split, stop words removed, stemmed. */
export function terms(text: string): string[] {
  return splitWords(text)
    .filter((w) => !isStopWord(w))
    .map(stem);
}
