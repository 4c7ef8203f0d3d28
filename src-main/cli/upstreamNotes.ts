// One line per upstream that is not serving, so `mws search` and `mws report` say why a tool is missing.
import type { UpstreamStatusView } from '../core/upstream/types.js';
import { statusWord } from '../shared/statusWords.js';

export function notServing(upstreams: UpstreamStatusView[]): string[] {
  return upstreams
    .filter((u) => u.status !== 'up')
    .map((u) => {
      const served = u.source === 'file' ? ` (serving its last-good ${u.toolCount} tools)` : '';
      // A value still missing is said with what to run, not the start error that says the same.
      if (u.status === 'needs-value') return `upstream "${u.vendor}" ${statusWord(u)} (\`mws upstream set ${u.vendor} ${u.needs?.[0] ?? 'KEY'}\`)${served}`;
      return `upstream "${u.vendor}" is ${statusWord(u)}${u.lastError ? `: ${u.lastError}` : ''}${served}`;
    });
}
