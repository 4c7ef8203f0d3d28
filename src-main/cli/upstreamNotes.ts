// One line per upstream that is not serving, so `mws search` and `mws report` say why a tool is missing.
import type { UpstreamStatusView } from '../core/upstream/types.js';

export function notServing(upstreams: UpstreamStatusView[]): string[] {
  return upstreams
    .filter((u) => u.status !== 'up')
    .map((u) => {
      const served = u.source === 'file' ? ` (serving its last-good ${u.toolCount} tools)` : '';
      const state = u.status === 'needs-sign-in' ? 'needs sign-in' : `is ${u.status}`;
      return `upstream "${u.vendor}" ${state}${u.lastError ? `: ${u.lastError}` : ''}${served}`;
    });
}
