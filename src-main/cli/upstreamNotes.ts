// One line per upstream that is not serving, so `mws search` and `mws report` say why a tool is missing,
// in the window's words (shared/errorWords.ts), not the SDK's.
import type { UpstreamRow } from '../core/control/api.js';
import { upstreamFailure } from '../shared/errorWords.js';
import { printable } from '../core/printable.js';

export function notServing(upstreams: UpstreamRow[]): string[] {
  return upstreams
    .filter((u) => u.status !== 'up')
    .map((u) => {
      const served = u.source === 'file' ? ` (serving its last-good ${u.toolCount} tools)` : '';
      const target = 'url' in u.config ? { url: u.config.url } : 'command' in u.config ? { command: u.config.command } : {};
      return printable(`upstream "${u.vendor}" is ${u.status}${u.lastError ? `: ${upstreamFailure(u.lastError, target).replace(/\.$/, '')}` : ''}${served}.`);
    });
}
