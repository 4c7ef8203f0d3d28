// How many values a JSON body holds, counted on its bytes before it is parsed: JSON.parse and every walk
// after it cost by the value, so a body of many tiny keys holds every agent's event loop, while a
// string of the same size costs almost nothing. Counting is one pass over the bytes, string-aware.
import { thousands } from '../../shared/countWords.js';

/** More values than this in one request are refused before parsing: parsing one request stalls every agent. */
export const MAX_JSON_VALUES = 50_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * The number of separators (`,` and `:`) and openings (`[`, `{`) outside strings, which bounds the number of values; stops
 * counting past `stopAt`. Below `stopAt / 2` bytes no body can reach it, so none is scanned.
 */
export function jsonSeparators(buf: Uint8Array, stopAt: number = MAX_JSON_VALUES): number {
  if (buf.length < stopAt) return 0;
  let n = 0;
  let inString = false;
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i]!;
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    // `[[[…]]]` holds a value per bracket and no separator: openings count too.
    else if (b === COMMA || b === COLON || b === OPEN_ARRAY || b === OPEN_OBJECT) {
      if (++n > stopAt) return n;
    }
  }
  return n;
}

/**
 * The deepest nesting of arrays and objects in `buf`, counted as jsonSeparators counts (outside strings);
 * stops past `stopAt`. A body nested thousands deep parses, but every recursive walk after (a sentence
 * quoting the value, JSON.stringify) runs out of stack on it.
 */
export function jsonDepth(buf: Uint8Array, stopAt: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i]!;
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      if (++depth > deepest && (deepest = depth) > stopAt) return deepest;
    } else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) depth--;
  }
  return deepest;
}

export const TOO_MANY_VALUES = `The request holds more than ${thousands(MAX_JSON_VALUES)} JSON values, so Working Set refused it unread: one request this large would hold up every agent. Send bulk data as one string argument instead.`;
