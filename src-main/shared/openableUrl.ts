// The one rule for what Working Set hands the OS or a browser to open (a sign-in link, a link in the
// window): a sign-in server's metadata chooses that URL, so `file:`, `javascript:`, a `.desktop` file or a
// page on another machine over plain HTTP must never reach xdg-open, shell.openExternal or window.open.
// Pure and dependency-free: the core, the CLI, the desktop shell and the renderer all read it.

/** Longer than any real authorization link (its query carries a few hundred characters). */
export const OPENABLE_URL_MAX = 16_384;

export type Openable = { ok: true; url: string } | { ok: false; reason: string };

/** A loopback host as the WHATWG URL parser writes it (it turns `0x7f.1`, `2130706433` into 127.0.0.1). */
function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  const m = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(hostname);
  return m !== null && m.slice(1).every((n) => Number(n) <= 255);
}

/**
 * Whether `raw` may be opened or shown as a link: `https:`, or `http:` to this machine (a loopback
 * host), with no user name or password in it. Answers the URL as parsed (what was checked is what opens)
 * or a sentence saying why not.
 */
export function openableUrl(raw: unknown): Openable {
  if (typeof raw !== 'string' || raw.length === 0) return { ok: false, reason: 'The link is empty.' };
  if (raw.length > OPENABLE_URL_MAX)
    return { ok: false, reason: `The link is ${raw.length} characters long (at most ${OPENABLE_URL_MAX}); it was not opened.` };
  // Control characters (the parser would drop tabs and newlines silently) mean the link was built to mislead.
  if (/[\u0000-\u001f\u007f]/.test(raw)) return { ok: false, reason: 'The link holds control characters; it was not opened.' };
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return { ok: false, reason: 'The link is not a valid URL; it was not opened.' };
  }
  const shown = `${u.protocol}//${u.host}`;
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    return { ok: false, reason: `The link is a ${u.protocol} URL; only https: links (or http: to this machine) are opened.` };
  if (u.protocol === 'http:' && !isLoopbackHost(u.hostname))
    return {
      ok: false,
      reason: `The link ${shown} is plain http: to another machine; only https: links (or http: to this machine) are opened.`,
    };
  if (u.username !== '' || u.password !== '')
    return { ok: false, reason: `The link to ${u.host} carries a user name or password before the host; it was not opened.` };
  return { ok: true, url: u.href };
}
