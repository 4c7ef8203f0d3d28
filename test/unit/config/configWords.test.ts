// The config's refusals a person reads: a did-you-mean for a misspelt "command" and for the old
// one-server "upstream" field written as a map of servers, and a long value quoted without being
// cut mid-path.
import { describe, expect, it } from 'vitest';
import { validateConfig, quoted, GOT_MAX_CHARS } from '../../../src-main/core/config/validate.js';

const refusal = (raw: unknown): string => {
  try {
    validateConfig(raw, '/tmp/mws-state');
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('accepted');
};

describe('config refusals in words', () => {
  it('"comand" gets a did-you-mean', () => {
    expect(refusal({ upstreams: { x: { comand: 'npx' } } })).toBe(
      'config field "upstreams.x" needs "url" for an HTTP server or "command" for a stdio server (did you mean "command" for "comand"?) (got {"comand":"npx"}).',
    );
    expect(refusal({ upstreams: { x: { ulr: 'http://127.0.0.1:9/mcp' } } })).toMatch(/did you mean "url" for "ulr"\?/);
  });

  it('"upstream" holding several servers says to write "upstreams"', () => {
    expect(refusal({ upstream: { github: { command: 'npx' }, linear: { url: 'https://mcp.linear.app/mcp' } } })).toMatch(
      /^config field "upstream" holds one server \(its tools keep their own names\); for several servers by name, write "upstreams" \(did you mean "upstreams"\?\)/,
    );
  });

  it('a long path is quoted with its end, marked as cut, not cut off mid-path', () => {
    const path = `/home/dana/${'projects/acme-platform/services/'.repeat(6)}reporting/.env.local`;
    const said = refusal({ upstreams: { x: { command: 'npx', envFile: 42, cwd: path } } });
    expect(said).toMatch(/envFile/);
    const q = quoted(path);
    expect(q.length).toBe(GOT_MAX_CHARS);
    expect(q.startsWith('"…')).toBe(true);
    expect(q.endsWith('reporting/.env.local"')).toBe(true);
    expect(quoted('short/path')).toBe('"short/path"');
  });
});
