// Hash routes: #/agents/<id>[/history], #/inbox, #/import, #/upstreams, #/activity, #/search, #/report, #/general.
// A notification click opens the window at an agent's history or the inbox through the same routes.
export type Screen = 'agents' | 'inbox' | 'import' | 'upstreams' | 'activity' | 'search' | 'report' | 'general';
export type Route = { screen: Screen; agent?: string; section?: string };

const KNOWN: readonly Screen[] = ['agents', 'inbox', 'import', 'upstreams', 'activity', 'search', 'report', 'general'];

function parse(hash: string): Route {
  let parts: string[];
  try {
    parts = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  } catch {
    parts = []; // a malformed escape in a hand-typed link opens the first screen
  }
  const [screen = 'agents', agent, section] = parts;
  const s = (KNOWN as readonly string[]).includes(screen) ? (screen as Screen) : 'agents';
  return { screen: s, ...(agent ? { agent } : {}), ...(section ? { section } : {}) };
}

export const route = $state<{ current: Route }>({ current: parse(location.hash) });
window.addEventListener('hashchange', () => (route.current = parse(location.hash)));

export function go(r: Route): void {
  location.hash = `#/${[r.screen, r.agent, r.section]
    .filter(Boolean)
    .map((x) => encodeURIComponent(x!))
    .join('/')}`;
}
