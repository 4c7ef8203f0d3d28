// The headers of every answer under /ui: the window runs only its own scripts and styles, and no page
// may frame it (a framed window under another page's buttons would take the user's clicks).
/** Scripts and styles from the window's own files only; nothing inline, nothing from elsewhere, never in a frame. */
export const WINDOW_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const WINDOW_HEADERS: Record<string, string> = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  // Another port's page may not even load the window's files as a script or image (same site, other origin).
  'cross-origin-resource-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
};

/** The answer with the window's headers; a CSP of its own (the sign-in page's) is kept. */
export function withWindowHeaders(res: Response): Response {
  const headers = new Headers(res.headers);
  if (!headers.has('content-security-policy')) headers.set('content-security-policy', WINDOW_CSP);
  for (const [k, v] of Object.entries(WINDOW_HEADERS)) headers.set(k, v);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}
