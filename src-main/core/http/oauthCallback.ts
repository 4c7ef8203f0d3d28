// GET /oauth/callback: where an upstream's authorization server sends the browser back after a
// sign-in. Only a `state` of a sign-in under way is taken, and only once (SignInFlows.take): a wrong,
// expired or replayed answer is refused, as is anything but a GET (a cross-site form post). The page
// says what happened; it never shows the code or a token.
import { errorMessage } from '../errors.js';
import type { Logger } from '../log.js';
import { logSafe, maskUrlsIn } from '../redact.js';
import type { SignInFlows } from '../upstream/oauth/flows.js';
import { escapeHtml } from './signInPage.js';

function page(status: number, title: string, sentence: string): Response {
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body style="font:16px system-ui,sans-serif;max-width:36em;margin:4em auto"><h1 style="font-size:1.3em">${escapeHtml(title)}</h1><p>${escapeHtml(sentence)}</p></body></html>\n`;
  return new Response(body, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      // The URL carries the authorization code: no page it links to may see it, nor frame it.
      'referrer-policy': 'no-referrer',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      'x-frame-options': 'DENY',
    },
  });
}

const AGAIN = 'Start the sign-in again with `mws login <upstream>`, or Sign in on the Upstreams screen of the window.';

/** The answer at OAUTH_CALLBACK_PATH (the edge mounts it there). */
export function oauthCallback(flows: SignInFlows, log: Logger): (request: Request) => Promise<Response> {
  return (request) => answer(request, new URL(request.url), flows, log);
}

async function answer(request: Request, url: URL, flows: SignInFlows, log: Logger): Promise<Response> {
  if (request.method !== 'GET') {
    return page(
      405,
      'Sign-in refused',
      'A sign-in answer arrives as a link the browser opens; this request was not one, and nothing was done.',
    );
  }
  const state = url.searchParams.get('state');
  const flow = state ? flows.take(state) : undefined;
  if (!flow) {
    return page(
      400,
      'Sign-in refused',
      `This answer is not from a sign-in Working Set is waiting for: it belongs to another sign-in, was used already, or expired. ${AGAIN}`,
    );
  }
  const error = url.searchParams.get('error');
  if (error !== null) {
    const said = [error, url.searchParams.get('error_description')].filter(Boolean).join(': ').slice(0, 300);
    log.warn(logSafe(`sign-in to upstream "${flow.vendor}" was not completed; the authorization server said ${said}`));
    return page(
      400,
      `Not signed in to ${flow.vendor}`,
      `The authorization server said: ${said}. ${AGAIN.replace('<upstream>', flow.vendor)}`,
    );
  }
  if (!url.searchParams.get('code')) {
    return page(
      400,
      `Not signed in to ${flow.vendor}`,
      `The answer carried no authorization code. ${AGAIN.replace('<upstream>', flow.vendor)}`,
    );
  }
  try {
    await flows.redeem(flow, url.searchParams);
  } catch (err) {
    const why = maskUrlsIn(errorMessage(err)).slice(0, 300);
    log.warn(logSafe(`sign-in to upstream "${flow.vendor}" failed: ${why}`));
    return page(
      400,
      `Not signed in to ${flow.vendor}`,
      `Redeeming the sign-in failed: ${why}. ${AGAIN.replace('<upstream>', flow.vendor)}`,
    );
  }
  return page(
    200,
    `Signed in to ${flow.vendor}`,
    `Working Set is signed in to "${flow.vendor}"; its tools are being listed. You can close this tab.`,
  );
}
