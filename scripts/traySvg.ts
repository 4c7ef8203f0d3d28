// The tray marks as SVG. Linux and Windows get coloured status marks on a blue plate with a white
// ring, which read on light and dark panels alike; macOS gets black-on-transparent template shapes
// that it recolours for the menu bar, the status told by shape (none, ring, pause bars, dot).
export type Mark = 'healthy' | 'degraded' | 'paused' | 'attention';
export const MARKS: readonly Mark[] = ['healthy', 'degraded', 'paused', 'attention'];

const COLOURS: Record<Mark, string> = { healthy: '#2fa866', degraded: '#e0a020', paused: '#8a929e', attention: '#e8590c' };

function mark(m: Mark, fill: string, template: boolean): string {
  if (m === 'paused')
    return `<g fill="${fill}"><rect x="19.6" y="19" width="3.2" height="10" rx="1"/><rect x="25.2" y="19" width="3.2" height="10" rx="1"/></g>`;
  if (template && m === 'healthy') return '';
  if (template && m === 'degraded') return `<circle cx="24" cy="24" r="4.8" fill="none" stroke="#000" stroke-width="2.4"/>`;
  const bang =
    m === 'attention' && !template
      ? `<rect x="23" y="20" width="2" height="5" rx="1" fill="#fff"/><rect x="23" y="26" width="2" height="2" rx="1" fill="#fff"/>`
      : '';
  return `<circle cx="24" cy="24" r="6" fill="${fill}"/>${bang}`;
}

export function traySvg(m: Mark, template: boolean): string {
  const bars = `<g fill="${template ? '#000' : '#fff'}"><rect x="${template ? 3 : 6}" y="7" width="20" height="4" rx="2"/><rect x="${template ? 3 : 6}" y="14" width="14" height="4" rx="2"/><rect x="${template ? 3 : 6}" y="21" width="9" height="4" rx="2"/></g>`;
  if (template) return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${bars}${mark(m, '#000', true)}</svg>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="1" y="1" width="30" height="30" rx="8" fill="#2a5bd7"/>${bars}<circle cx="24" cy="24" r="7.6" fill="#fff"/>${mark(m, COLOURS[m], false)}</svg>`;
}
