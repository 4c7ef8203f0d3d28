// The page a browser gets at / and at /ui without a session: where the window lives and how to get
// in (a one-time link from `mws serve` or `mws ui`), styled like the window, light or dark. A plain
// 401 told a person nothing about what to do.
import { createHash } from 'node:crypto';

const STYLE = `
  :root { color-scheme: light dark; --bg: #fbfbfc; --fg: #1b1d21; --muted: #5d6470; --line: #d9dce1; --card: #fff; --accent: #2459d6; }
  @media (prefers-color-scheme: dark) { :root { --bg: #15171b; --fg: #e8eaee; --muted: #a0a7b3; --line: #2c3038; --card: #1c1f25; --accent: #7aa2ff; } }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: var(--bg); color: var(--fg); font: 15px/1.5 system-ui, -apple-system, 'Segoe UI', sans-serif; }
  main { max-width: 520px; margin: 24px; padding: 28px 32px; background: var(--card); border: 1px solid var(--line); border-radius: 12px; }
  h1 { font-size: 19px; margin: 0 0 10px; } p { margin: 8px 0; } .muted { color: var(--muted); font-size: 13px; }
  code { font: 13px ui-monospace, Menlo, Consolas, monospace; background: var(--bg); border: 1px solid var(--line); border-radius: 5px; padding: 1px 6px; }
`;
/**
 * The page's one inline style is allowed by its hash; its one script is the window's own file that
 * gives a window back a lost cookie (http/sessionRenew.ts); nothing else, never in a frame.
 */
export const SIGN_IN_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

const PAGE = (title: string, body: string, head = '<script src="/ui/_renew.js" defer></script>') => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} — Working Set</title>
<style>${STYLE}</style>${head}</head>
<body><main><h1>${title}</h1>${body}</main></body></html>`;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** The link to the team's identity provider, on a page of an instance whose window signs people in there. */
const PROVIDER_LINK = '<p><a id="sign-in-provider" href="/ui/_signin">Sign in with your team\'s identity provider</a></p>';

const html = (status: number, body: string, extraHeaders: Record<string, string> = {}) =>
  new Response(body, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': SIGN_IN_CSP,
      'referrer-policy': 'no-referrer',
      ...extraHeaders,
    },
  });

/** Answered where the window refuses: an expired or reused link, or no link at all. */
export function signInPage(kind: 'no-session' | 'link-spent', provider = false): Response {
  const body =
    kind === 'link-spent'
      ? '<p>This one-time link has been used already or has expired (links last 15 minutes).</p><p>Run <code>mws ui</code> for a new one, or open the window from the tray.</p>'
      : '<p>The settings window opens through a one-time link: the one <code>mws serve</code> printed, or a new one from <code>mws ui</code>.</p><p>In the desktop app, choose Settings… in the tray menu.</p>';
  const title = kind === 'link-spent' ? 'This link has expired' : 'Sign in to Working Set';
  return html(
    401,
    PAGE(title, `${provider ? PROVIDER_LINK : ''}${body}<p class="muted">The link signs this browser in; it needs no password.</p>`),
  );
}

/**
 * How a sign-in through the provider ended: a sentence (escaped: it may quote the provider), a link to
 * start again, or `next`, where the page goes by itself (a same-site navigation, unlike a redirect).
 */
export function signInAnswer(a: { status: number; title: string; sentence: string; retry?: boolean; next?: string }): Response {
  const go = a.next ? `<p><a id="continue" href="${escapeHtml(a.next)}">Continue</a></p>` : '';
  // No renewal script here: it could set back an older session's cookie over the one just opened.
  const head = a.next ? `<meta http-equiv="refresh" content="0;url=${escapeHtml(a.next)}">` : '';
  return html(a.status, PAGE(escapeHtml(a.title), `<p>${escapeHtml(a.sentence)}</p>${a.retry ? PROVIDER_LINK : ''}${go}`, head));
}
