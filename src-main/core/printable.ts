// Strings that came from elsewhere (a client's config file, an upstream) made safe to show in a terminal
// and commands made safe to paste: control characters shown as escapes (an ESC or OSC sequence in a
// server name must not reach the terminal raw), and shell words quoted by shell-quote, not by hand.
import { quote } from 'shell-quote';
import { BIDI_CONTROLS } from '../shared/plainText.js';

/** C0 controls, DEL, C1 controls and the Unicode line/paragraph separators. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** Either kind, not global (no lastIndex to reset). */
const ANY_UNSAFE = new RegExp(`${CONTROL.source}|${BIDI_CONTROLS.source}`);

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e', '\u0007': '\\a' };

export function hasControl(s: string): boolean {
  CONTROL.lastIndex = 0;
  BIDI_CONTROLS.lastIndex = 0;
  return CONTROL.test(s) || BIDI_CONTROLS.test(s);
}

/**
 * `s` with every control character written as an escape (`\e`, `\n`, `\x9b`…), safe to print, and every
 * bidi control (shared/plainText.ts) as `\u202e`: an override would show the rest of the line reversed.
 */
export function printable(s: string): string {
  // Most text has none: one test is four times quicker than two replaces (a report of 100 agents has ~130,000 cells).
  if (!ANY_UNSAFE.test(s)) return s;
  return s
    .replace(CONTROL, (c) => NAMED[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
    .replace(BIDI_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A word no POSIX shell treats specially anywhere after the command (URLs stay readable: no `http\\:`). */
const PLAIN = /^[A-Za-z0-9_\-.,:/@%+=]+$/;

/**
 * A command line a person may paste into a POSIX shell, each word quoted so that `$( )`, backticks and
 * the like stay text; undefined when a word holds a control character (no quoting keeps an ESC or a
 * newline harmless on every terminal, so such a name gets a sentence instead of a command).
 */
export function shellLine(words: readonly string[]): string | undefined {
  if (words.some(hasControl)) return undefined;
  return words.map((w) => (PLAIN.test(w) ? w : quote([w]))).join(' ');
}
