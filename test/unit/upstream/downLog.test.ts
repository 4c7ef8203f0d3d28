// A down upstream in words, logged on change and then ever more rarely: the log
// said "Version negotiation probe failed: fetch failed" twice per retry, every 30 s, forever.
import { describe, expect, it } from 'vitest';
import { DownLog } from '../../../src-main/core/upstream/downLog.js';
import { notServing } from '../../../src-main/cli/upstreamNotes.js';
import type { UpstreamRow } from '../../../src-main/core/control/api.js';

const http = { kind: 'http' as const, url: 'http://127.0.0.1:9/mcp?key=secret', headers: {} };

describe('a down upstream in the log', () => {
  it('says why in a sentence, then only at 1, 2, 4, 8… failures in a row or when the reason changes', () => {
    const log = new DownLog();
    const lines = Array.from({ length: 40 }, () =>
      log.failed('mail', 'Version negotiation probe failed: fetch failed', http, 30_000),
    ).filter(Boolean);
    expect(lines).toHaveLength(6); // 1, 2, 4, 8, 16, 32
    expect(lines[0]).toBe(
      'upstream "mail" is down: Nothing answers at http://127.0.0.1:9/mcp?key=***. Check that the server is running and that the host and port are right. Retrying in 30 s.',
    );
    expect(lines[5]).toMatch(/\(32 attempts in a row; said again at 64 or when the reason changes\)\.$/);
    expect(log.failed('mail', 'HTTP 401 Unauthorized', http, 30_000)).toMatch(/refused our credentials/);
    expect(log.up('mail')).toBe('upstream "mail" is up again.');
    expect(log.up('mail')).toBeUndefined();
  });

  it("the CLI says the same words, not the SDK's", () => {
    const row = {
      vendor: 'mail',
      status: 'down',
      lastError: 'Version negotiation probe failed: fetch failed',
      source: 'none',
      toolCount: 0,
      config: { url: 'http://127.0.0.1:9/mcp' },
    } as unknown as UpstreamRow;
    expect(notServing([row])).toEqual([
      'upstream "mail" is down: Nothing answers at http://127.0.0.1:9/mcp. Check that the server is running and that the host and port are right.',
    ]);
  });
});
