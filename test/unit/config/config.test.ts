import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { loadConfig } from '../../../src-main/core/config/load.js';
import { resolveConfigPath } from '../../../src-main/core/config/paths.js';
import { MwsError } from '../../../src-main/core/errors.js';

function refusal(raw: unknown): MwsError {
  try {
    validateConfig(raw, '/state');
  } catch (err) {
    return err as MwsError;
  }
  throw new Error('expected a refusal');
}

describe('config', () => {
  it('fills every default from an empty file', () => {
    const c = validateConfig({}, '/state');
    expect(c.listen).toEqual({ host: '127.0.0.1', port: 4484 });
    expect(c.timeouts).toEqual({
      listMs: 5000,
      connectMs: 120_000,
      callMs: 120_000,
      catalogTtlMs: 30_000,
      approvalMs: 120_000,
      approvalAnswerMs: 50_000,
    });
    expect(c.promote).toMatchObject({ minSessions: 2, minCalls: 1, windowDays: 30, pinDecayDays: 90 });
    expect(c.agents).toEqual([{ id: 'default', name: 'Default', cap: 20, idleWindowDays: 21, approvals: 'ask', pins: [] }]);
    expect(c.stateDir).toBe('/state');
  });

  it('keeps the single seed-style upstream unprefixed and prefixes vendor-keyed ones', () => {
    expect(validateConfig({ upstream: { url: 'http://127.0.0.1:1/mcp' } }, '/s')).toMatchObject({
      prefixNames: false,
      upstreams: { upstream: { kind: 'http' } },
    });
    const many = validateConfig(
      { upstreams: { mail: { url: 'http://127.0.0.1:1/mcp', headers: { a: 'b' } }, fs: { command: 'npx', args: ['x'] } } },
      '/s',
    );
    expect(many.prefixNames).toBe(true);
    expect(many.upstreams.fs).toEqual({ kind: 'stdio', command: 'npx', args: ['x'], env: {}, cwd: undefined });
  });

  it('always has the default agent, validated agents after it', () => {
    const c = validateConfig({ agents: [{ id: 'codex', cap: 5, approvals: 'read-only' }] }, '/s');
    expect(c.agents.map((a) => [a.id, a.cap, a.approvals])).toEqual([
      ['default', 20, 'ask'],
      ['codex', 5, 'read-only'],
    ]);
  });

  it.each([
    [{ listen: { port: 'x' } }, 'listen.port', /whole number from 0 to 65535/],
    [{ listen: { host: '10.0.0.1' } }, 'listen.host', /loopback/],
    [{ agents: [{ id: 'Bad Id' }] }, 'agents[0].id', /slug/],
    [{ agents: [{ id: 'a', idleWindowDays: 0 }] }, 'agents[0].idleWindowDays', /1 to 3650/],
    [{ agents: [{ id: 'a', approvals: 'sometimes' }] }, 'agents[0].approvals', /"ask", "allow", "read-only"/],
    [{ agents: [{ id: 'a' }, { id: 'a' }] }, 'agents[1].id', /unique/],
    [{ upstreams: { mail: { url: 'ftp://x' } } }, 'upstreams.mail.url', /http or https/],
    [{ upstreams: { mail: {} } }, 'upstreams.mail', /"url".*"command"/],
    [{ upstreams: { Mail: { url: 'http://x' } } }, 'upstreams.Mail', /vendor slug/],
    [{ upstream: { url: 'http://x' }, upstreams: {} }, 'upstream', /together/],
    [{ pins: 'x' }, 'pins', /array of strings/],
    [{ timeouts: { listMs: 1 } }, 'timeouts.listMs', /50 to/],
    [{ compactDescriptions: 'yes' }, 'compactDescriptions', /true or false/],
    [{ colour: 'blue' }, 'colour', /not a known field/],
  ])('refuses %j at %s', (raw, path, reason) => {
    const err = refusal(raw);
    expect(err.code).toBe('config_invalid');
    expect(err.data.path).toBe(path);
    expect(err.message).toMatch(reason);
  });

  it('treats a missing file as all defaults and names the file when JSON is broken', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mws-cfg-'));
    const missing = await loadConfig(join(dir, 'none.json'), '/s');
    expect(missing.exists).toBe(false);
    writeFileSync(join(dir, 'bad.json'), '{ nope');
    await expect(loadConfig(join(dir, 'bad.json'), '/s')).rejects.toThrow(/bad\.json is not valid JSON/);
  });

  it('resolves --config, then $MWS_CONFIG, then the default path', () => {
    expect(resolveConfigPath('/a.json', { MWS_CONFIG: '/b.json' })).toBe('/a.json');
    expect(resolveConfigPath(undefined, { MWS_CONFIG: '/b.json' })).toBe('/b.json');
    expect(resolveConfigPath(undefined, {})).toMatch(/mcp-working-set\/config\.json$/);
  });
});
