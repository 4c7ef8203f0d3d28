// Secrets never shown, and client strings never trusted in the log. Upstream URLs may carry
// credentials (`user:pass@`, `?api_key=`); every place that shows a URL or an error that may quote
// one goes through here. Client-supplied text (tool names, client names) may hold newlines or ANSI
// escapes that would forge log lines, so log messages are escaped and cut.

const MASK = '***';
/** Query parameters whose values are credentials. */
const SECRET_PARAM = /(?:key|token|secret|password|passwd|pwd|auth|signature|sig|credential|session)/i;

/**
 * Header and env names whose values are secrets: the credential words of query parameters, and
 * cookies. `mws import`, the window's save and `mws secrets migrate` move such values to the secret store.
 */
export function isSecretName(name: string): boolean {
  return SECRET_PARAM.test(name) || /cookie|bearer/i.test(name);
}

/** The URL with its user/password and credential-like query values replaced by ***. */
export function maskUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return maskUrlsIn(url);
  }
  if (u.username) u.username = MASK;
  if (u.password) u.password = MASK;
  let changed = false;
  for (const [k] of u.searchParams) {
    if (SECRET_PARAM.test(k)) {
      u.searchParams.set(k, MASK);
      changed = true;
    }
  }
  const out = u.toString();
  // URLSearchParams re-encodes `***` as `%2A%2A%2A`; put the readable mask back.
  return changed ? out.replaceAll('%2A%2A%2A', MASK) : out;
}

/** A URL in prose, without the punctuation that ends a sentence or clause after it. */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'<>]*[^\s"'<>.,:;)\]]/gi;

/** Masks every http(s) URL found in free text (error messages quote the URL they failed on). */
export function maskUrlsIn(text: string): string {
  return text.replace(URL_IN_TEXT, (m) => {
    if (!/@|[?&]/.test(m)) return m;
    // A URL that does not parse is still masked by hand: anything before an @ in the authority.
    try {
      return maskUrl(m);
    } catch {
      return m.replace(/\/\/[^/@]*@/, `//${MASK}@`);
    }
  });
}

/** A log message cut to a sane length. */
export const MAX_LOG_MESSAGE = 2000;

/**
 * A message safe to write as one log line: control characters (newlines, ESC of ANSI sequences)
 * escaped as \n or \x1b, URLs masked, and the whole cut to MAX_LOG_MESSAGE characters.
 */
export function logSafe(message: string): string {
  const escaped = maskUrlsIn(message).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    const code = c.charCodeAt(0);
    return code > 0xff ? `\\u${code.toString(16)}` : `\\x${code.toString(16).padStart(2, '0')}`;
  });
  return escaped.length > MAX_LOG_MESSAGE
    ? `${escaped.slice(0, MAX_LOG_MESSAGE)}… (${escaped.length - MAX_LOG_MESSAGE} more characters)`
    : escaped;
}
