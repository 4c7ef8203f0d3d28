// Hash routes: #/agents/<id>[/history], #/upstreams, #/search, #/report, #/general. A notification
// click opens the window at an agent's history through the same routes.
export type Route = { screen: 'agents' | 'upstreams' | 'search' | 'report' | 'general'; agent?: string; section?: string };

function parse(hash: string): Route {
  const [screen = 'agents', agent, section] = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  const known = ['agents', 'upstreams', 'search', 'report', 'general'] as const;
  const s = (known as readonly string[]).includes(screen) ? (screen as Route['screen']) : 'agents';
  return { screen: s, ...(agent ? { agent } : {}), ...(section ? { section } : {}) };
}

export const route = $state<{ current: Route }>({ current: parse(location.hash) });
window.addEventListener('hashchange', () => (route.current = parse(location.hash)));

export function go(r: Route): void {
  location.hash = `#/${[r.screen, r.agent, r.section].filter(Boolean).map((x) => encodeURIComponent(x!)).join('/')}`;
}
