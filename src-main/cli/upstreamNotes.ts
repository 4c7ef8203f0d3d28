// One line per upstream that is not serving, so `mws search` and `mws report` say why a tool is missing,
// in the window's words (shared/errorWords.ts), not the SDK's.
import type { UpstreamRow } from '../core/control/api.js';
import { upstreamFailure } from '../shared/errorWords.js';
import { printable } from '../core/printable.js';
import { statusWord, waitsForUser } from '../shared/statusWords.js';

export function notServing(upstreams: UpstreamRow[]): string[] {
  return upstreams
    .filter((u) => u.status !== 'up')
    .map((u) => {
      const served = u.source === 'file' ? ` (serving its last-good ${u.toolCount} tools)` : '';
      // A value still missing is said with what to run, not the start error that says the same.
      if (u.status === 'needs-value')
        return printable(`upstream "${u.vendor}" ${statusWord(u)} (\`mws upstream set ${u.vendor} ${u.needs?.[0] ?? 'KEY'}\`)${served}`);
      const target = 'url' in u.config ? { url: u.config.url } : 'command' in u.config ? { command: u.config.command } : {};
      // "needs sign-in" reads as it is; "down", "off", "revoked" take "is".
      return printable(
        `upstream "${u.vendor}" ${waitsForUser(u) ? '' : 'is '}${statusWord(u)}${u.lastError ? `: ${upstreamFailure(u.lastError, target).replace(/\.$/, '')}` : ''}${served}.`,
      );
    });
}
