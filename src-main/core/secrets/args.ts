// Credentials inside a stdio server's command-line arguments, recognised as env and header values are
// by their name: a password in a URL's user part (postgresql://user:PASSWORD@host), the value of a
// credential flag (`--token=VALUE`, `--api-key VALUE`) and a `NAME=VALUE` argument whose name is a
// credential's (`docker run -e GITHUB_TOKEN=VALUE`), a credential's pair inside a longer argument (a
// connection string `host=h password=VALUE`, `Server=h;Password=VALUE`, a URL's `?api_key=VALUE`) and
// a credential's member in a JSON argument (`{"password":"VALUE"}`). Shown masked, moved to the secret store by
// import, the window's save and `mws secrets migrate`, and masked in errors like any other secret.
import { isSecretName } from '../redact.js';
import { hasPlaceholder } from './placeholder.js';

/** How a secret value is shown (the window, import's list): sent back unchanged, it means "the saved one". */
export const SECRET_MASK = '••••';

/** One credential inside an argument: `args[index].slice(start, end)`; `label` names it (the flag, the variable). */
export type ArgSecret = { index: number; start: number; end: number; label: string };

const FLAG = /^--?[A-Za-z][\w.-]*$/;
/** `--no-auth`, `--skip-token-check` and the like turn something off: the next argument is no credential. */
const negation = (flag: string) => /^--?(?:no|skip|disable|without)-/i.test(flag);
/** A flag whose value is the next argument and a credential (`--token`, `--api-key`). */
const secretFlag = (a: string | undefined): a is string => a !== undefined && FLAG.test(a) && !negation(a) && isSecretName(a);
/** `--token=VALUE`, or `API_KEY=VALUE` (an environment variable passed on the command line). */
const NAMED = /^(--?[A-Za-z][\w.-]*|[A-Za-z_][A-Za-z0-9_]*)=([\s\S]+)$/;
/** A URL's user part with a password: the password is group 1. */
const URL_PASSWORD = /[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/@:?#]*:([^\s/@?#]+)@/g;
/** `NAME=VALUE` after a separator inside a longer argument (libpq and ODBC strings, a URL's query). */
const PAIR = /(?:^|[\s;&?,])([A-Za-z_][\w.-]*)=([^\s;&,'"]+)/g;
/** `"NAME": "VALUE"` inside a JSON argument. */
const JSON_MEMBER = /"([A-Za-z_][\w.-]*)"\s*:\s*"((?:[^"\\]|\\.)+)"/g;

/** Where a credential's value lies in `a`, for each match of `pattern` whose group 1 names a credential and group 2 is its value. */
function namedValues(a: string, index: number, pattern: RegExp, valueEndOffset: number): ArgSecret[] {
  const out: ArgSecret[] = [];
  for (const m of a.matchAll(pattern)) {
    const [whole, name, value] = m as unknown as [string, string, string];
    if (!isSecretName(name) || negation(name) || hasPlaceholder(value)) continue;
    const end = m.index + whole.length - valueEndOffset;
    out.push({ index, start: end - value.length, end, label: name });
  }
  return out;
}

export function argSecrets(args: readonly string[]): ArgSecret[] {
  const out: ArgSecret[] = [];
  args.forEach((a, index) => {
    const named = NAMED.exec(a);
    if (named && isSecretName(named[1]!) && !negation(named[1]!)) {
      if (!hasPlaceholder(named[2]!)) out.push({ index, start: named[1]!.length + 1, end: a.length, label: named[1]! });
      return;
    }
    const flag = args[index - 1];
    if (secretFlag(flag) && a !== '' && !a.startsWith('-')) {
      if (!hasPlaceholder(a)) out.push({ index, start: 0, end: a.length, label: flag });
      return;
    }
    const inside: ArgSecret[] = [];
    for (const m of a.matchAll(URL_PASSWORD)) {
      const password = m[1]!;
      if (hasPlaceholder(password)) continue;
      const end = m.index + m[0].length - 1;
      inside.push({ index, start: end - password.length, end, label: 'url-password' });
    }
    inside.push(...namedValues(a, index, PAIR, 0), ...namedValues(a, index, JSON_MEMBER, 1));
    out.push(...inside.sort((x, y) => x.start - y.start));
  });
  return out;
}

/** The arguments with each credential replaced by `mask` (references stay: they hold no value). */
export function maskArgs(args: readonly string[], mask: string): string[] {
  const out = [...args];
  // From the last span back, so the earlier spans of one argument keep their places.
  for (const s of argSecrets(args).reverse()) out[s.index] = out[s.index]!.slice(0, s.start) + mask + out[s.index]!.slice(s.end);
  return out;
}

/** The credential values themselves (to mask them wherever an error may quote them). */
export function argSecretValues(args: readonly string[]): string[] {
  return argSecrets(args).map((s) => args[s.index]!.slice(s.start, s.end));
}
