// The secret store (0600, atomic, damaged file moved aside, sealed by a cipher), the references a config
// names secrets and asked-for values by, and the resolve step that reads them only when connecting.
import { describe, expect, it } from 'vitest';
import { chmodSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/app.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import { FileSecretStore, MemorySecretStore, SECRETS_FILE, type SecretCipher } from '../../../src-main/core/secrets/store.js';
import { maskValues, resolveUpstream } from '../../../src-main/core/secrets/refs.js';
import { applyMoves, planConfigMoves, storeMoves } from '../../../src-main/core/secrets/move.js';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import type { UpstreamConfig } from '../../../src-main/core/config/schema.js';

/** A cipher twin: reversible, and visibly not the plain text. */
const rot: SecretCipher = {
  id: 'test-rot',
  encrypt: async (s) => Buffer.from(s, 'utf8').toString('base64').split('').reverse().join(''),
  decrypt: async (s) => Buffer.from(s.split('').reverse().join(''), 'base64').toString('utf8'),
};

describe('the secret store file', () => {
  it('keeps values in stateDir/secrets.json with mode 0600, written atomically, and answers names', async () => {
    const dir = tempDir('mws-secrets-');
    const s = new FileSecretStore(dir, new MemoryLogger());
    expect(await s.get('a')).toBeUndefined();
    await s.set('upstreams.github.headers.Authorization', 'Bearer ghp_1234');
    await s.set('upstreams.brave.inputs.brave-key', 'BSA-xyz');
    expect(await s.get('upstreams.github.headers.Authorization')).toBe('Bearer ghp_1234');
    expect(await s.list()).toEqual(['upstreams.brave.inputs.brave-key', 'upstreams.github.headers.Authorization']);
    const path = join(dir, SECRETS_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual([SECRETS_FILE]); // no temp file left behind
    expect(await s.delete('upstreams.brave.inputs.brave-key')).toBe(true);
    expect(await s.delete('upstreams.brave.inputs.brave-key')).toBe(false);
    expect(await new FileSecretStore(dir, new MemoryLogger()).list()).toEqual(['upstreams.github.headers.Authorization']);
  });

  it('makes a file someone opened up 0600 again at the next write', async () => {
    const dir = tempDir('mws-secrets-');
    const s = new FileSecretStore(dir, new MemoryLogger());
    await s.set('a', 'one-value');
    chmodSync(join(dir, SECRETS_FILE), 0o644);
    await s.set('b', 'two-value');
    expect(statSync(join(dir, SECRETS_FILE)).mode & 0o777).toBe(0o600);
  });

  it('loses no write when many come at once', async () => {
    const s = new FileSecretStore(tempDir('mws-secrets-'), new MemoryLogger());
    await Promise.all(Array.from({ length: 20 }, (_, i) => s.set(`k${i}`, `value-${i}`)));
    expect((await s.list()).length).toBe(20);
  });

  it('moves a damaged file aside with a warning, never silently resetting it', async () => {
    const dir = tempDir('mws-secrets-');
    writeFileSync(join(dir, SECRETS_FILE), '{"version": 1, "secrets": {"a": ');
    const log = new MemoryLogger();
    const s = new FileSecretStore(dir, log);
    expect(await s.get('a')).toBeUndefined();
    expect(log.lines.join('\n')).toMatch(/secrets\.json was damaged; it was moved to .*secrets\.json\.damaged-/);
    const aside = readdirSync(dir).find((f) => f.startsWith(`${SECRETS_FILE}.damaged-`))!;
    expect(readFileSync(join(dir, aside), 'utf8')).toContain('"secrets"');
    // A file of the wrong shape (a value that is not a string) is damaged too.
    writeFileSync(join(dir, SECRETS_FILE), JSON.stringify({ version: 1, secrets: { a: 5 } }));
    expect(await s.list()).toEqual([]);
    expect(readdirSync(dir).filter((f) => f.includes('.damaged-')).length).toBeGreaterThanOrEqual(1);
  });

  it('refuses names that could not be referenced, and values that are not strings', async () => {
    const s = new FileSecretStore(tempDir('mws-secrets-'), new MemoryLogger());
    await expect(s.set('has space', 'v')).rejects.toThrow(/secret's name must be 1 to 200 letters/);
    await expect(s.set('}', 'v')).rejects.toThrow(/secret's name/);
    await expect(s.set('ok', 5 as unknown as string)).rejects.toThrow(/must be a string/);
    await expect(s.get('__proto__')).resolves.toBeUndefined();
    // A name that is special to JavaScript objects is kept like any other.
    await s.set('__proto__', 'proto-value');
    await s.set('b', 'b-value');
    expect(await s.get('__proto__')).toBe('proto-value');
    expect(await s.list()).toEqual(['__proto__', 'b']);
  });

  it("with a cipher (the desktop app's keychain), the file holds no plain value, and a store without it refuses with a sentence", async () => {
    const dir = tempDir('mws-secrets-');
    // Written headless first: read as it is, sealed at the next write.
    await new FileSecretStore(dir, new MemoryLogger()).set('old', 'plain-old-value');
    const sealed = new FileSecretStore(dir, new MemoryLogger(), rot);
    expect(await sealed.get('old')).toBe('plain-old-value');
    await sealed.set('new', 'sk-live-SECRET');
    const text = readFileSync(join(dir, SECRETS_FILE), 'utf8');
    expect(text).not.toMatch(/sk-live-SECRET|plain-old-value/);
    expect(JSON.parse(text)).toMatchObject({ version: 1, cipher: 'test-rot' });
    expect(await sealed.get('new')).toBe('sk-live-SECRET');
    expect(await sealed.get('old')).toBe('plain-old-value');
    const headless = new FileSecretStore(dir, new MemoryLogger());
    await expect(headless.get('new')).rejects.toMatchObject({ code: 'secrets_locked' });
    await expect(headless.set('x', 'y')).rejects.toMatchObject({ code: 'secrets_locked' });
    // The sealed file was left as it was.
    expect(readFileSync(join(dir, SECRETS_FILE), 'utf8')).toBe(text);
  });
});

const http = (headers: Record<string, string>, extra: Partial<Extract<UpstreamConfig, { kind: 'http' }>> = {}): UpstreamConfig => ({
  kind: 'http',
  url: 'http://127.0.0.1:1/mcp',
  headers,
  ...extra,
});
const stdio = (env: Record<string, string>, extra: Partial<Extract<UpstreamConfig, { kind: 'stdio' }>> = {}): UpstreamConfig => ({
  kind: 'stdio',
  command: 'x',
  args: [],
  env,
  cwd: undefined,
  ...extra,
});

describe('references, resolved only when connecting', () => {
  it("reads ${secret:…} from the store, ${input:…} under the upstream's own name, ${env:…} from the process", async () => {
    const secrets = new MemorySecretStore();
    await secrets.set('upstreams.gh.headers.Authorization', 'Bearer ghp_abcd');
    await secrets.set('upstreams.gh.inputs.org', 'acme');
    const r = await resolveUpstream(
      'gh',
      http({
        Authorization: '${secret:upstreams.gh.headers.Authorization}',
        'X-Org': '${input:org}',
        'X-Home': '${env:HOME_DIR}',
        Plain: 'as-is',
      }),
      { secrets, env: { HOME_DIR: '/home/d' } },
    );
    expect(r).toEqual({
      ok: true,
      config: http({ Authorization: 'Bearer ghp_abcd', 'X-Org': 'acme', 'X-Home': '/home/d', Plain: 'as-is' }),
      secrets: ['Bearer ghp_abcd', 'acme', '/home/d'],
    });
  });

  it('names every value still missing, by the name `mws upstream set` takes, and never answers a config with a placeholder', async () => {
    const secrets = new MemorySecretStore();
    const r = await resolveUpstream(
      'brave',
      stdio({ BRAVE_API_KEY: '${input:BRAVE_API_KEY}', TOKEN: '${secret:upstreams.brave.env.TOKEN}', X: 'Bearer ${input:brave-key}' }),
      { secrets, env: {} },
    );
    expect(r).toEqual({ ok: false, needs: ['BRAVE_API_KEY', 'TOKEN', 'brave-key'] });
    // Another upstream's input of the same id is not this one's.
    await secrets.set('upstreams.other.inputs.BRAVE_API_KEY', 'nope');
    expect((await resolveUpstream('brave', stdio({ K: '${input:BRAVE_API_KEY}' }), { secrets, env: {} })).ok).toBe(false);
  });

  it("bearerTokenEnvVar: the process's variable as a bearer token, or the value given to Working Set, else needs a value", async () => {
    const secrets = new MemorySecretStore();
    const cfg = http({}, { bearerTokenEnvVar: 'FIGMA_OAUTH_TOKEN' });
    expect(await resolveUpstream('figma', cfg, { secrets, env: {} })).toEqual({ ok: false, needs: ['FIGMA_OAUTH_TOKEN'] });
    const r = await resolveUpstream('figma', cfg, { secrets, env: { FIGMA_OAUTH_TOKEN: 'figd_1234' } });
    expect(r.ok && r.config.kind === 'http' && r.config.headers).toEqual({ Authorization: 'Bearer figd_1234' });
    await secrets.set('upstreams.figma.inputs.FIGMA_OAUTH_TOKEN', 'figd_given');
    const g = await resolveUpstream('figma', cfg, { secrets, env: {} });
    expect(g.ok && g.config.kind === 'http' && g.config.headers).toEqual({ Authorization: 'Bearer figd_given' });
  });

  it("envFile is read at connect time (the config's env wins), and a missing one is a sentence naming it", async () => {
    const dir = tempDir('mws-envfile-');
    const file = join(dir, '.env');
    writeFileSync(file, '# keys\nAPI_KEY=from-file\nexport REGION="eu west"\nMODE=file\n');
    const r = await resolveUpstream('s', stdio({ MODE: 'config' }, { envFile: file }), { secrets: new MemorySecretStore(), env: {} });
    expect(r.ok && r.config.kind === 'stdio' && r.config.env).toEqual({ API_KEY: 'from-file', REGION: 'eu west', MODE: 'config' });
    writeFileSync(file, 'API_KEY=changed\n');
    const again = await resolveUpstream('s', stdio({}, { envFile: file }), { secrets: new MemorySecretStore(), env: {} });
    expect(again.ok && again.config.kind === 'stdio' && again.config.env).toEqual({ API_KEY: 'changed' });
    await expect(
      resolveUpstream('s', stdio({}, { envFile: join(dir, 'none.env') }), { secrets: new MemorySecretStore(), env: {} }),
    ).rejects.toThrow(/reads its environment from .*none\.env, which cannot be read \(ENOENT\)/);
  });

  it('counts a plain-text secret value (not migrated yet) among the values to mask', async () => {
    const r = await resolveUpstream('s', stdio({ API_TOKEN: 'plain-token-1', DEBUG: 'verbose' }), {
      secrets: new MemorySecretStore(),
      env: {},
    });
    expect(r.ok && r.secrets).toEqual(['plain-token-1']);
  });

  it('masks resolved values wherever an error or stderr line quotes them', () => {
    expect(maskValues('401 for token sk-abc-123 (sk-abc-123)', ['sk-abc-123', 'ab'])).toBe('401 for token •••• (••••)');
  });
});

describe('the config names secrets by reference', () => {
  it('accepts references, envFile and bearerTokenEnvVar, and refuses a malformed reference or a relative envFile', () => {
    const c = validateConfig(
      {
        upstreams: {
          gh: {
            url: 'https://x.test/mcp',
            headers: { Authorization: '${secret:upstreams.gh.headers.Authorization}' },
            bearerTokenEnvVar: 'GH_TOKEN',
          },
          s: { command: 'x', env: { K: '${input:k}' }, envFile: '/abs/.env' },
        },
      },
      '/tmp/state',
    );
    expect(c.upstreams.gh).toEqual({
      kind: 'http',
      url: 'https://x.test/mcp',
      headers: { Authorization: '${secret:upstreams.gh.headers.Authorization}' },
      bearerTokenEnvVar: 'GH_TOKEN',
    });
    expect(c.upstreams.s).toMatchObject({ kind: 'stdio', env: { K: '${input:k}' }, envFile: '/abs/.env' });
    expect(() =>
      validateConfig({ upstreams: { gh: { url: 'https://x.test/mcp', headers: { A: '${secret:has space}' } } } }, '/tmp/s'),
    ).toThrow(/config field "upstreams\.gh\.headers\.A" has a malformed \$\{secret:NAME\} reference/);
    expect(() => validateConfig({ upstreams: { s: { command: 'x', envFile: '.env' } } }, '/tmp/s')).toThrow(
      /"upstreams\.s\.envFile" must be an absolute path/,
    );
    expect(() => validateConfig({ upstreams: { gh: { url: 'https://x.test/mcp', bearerTokenEnvVar: 'no spaces' } } }, '/tmp/s')).toThrow(
      /bearerTokenEnvVar" must be an environment variable name/,
    );
  });

  it('the published config.schema.json describes the reference forms', () => {
    const schema = readFileSync(join(__dirname, '..', '..', '..', 'config.schema.json'), 'utf8');
    expect(schema).toContain('bearerTokenEnvVar');
    expect(schema).toContain('envFile');
    expect(schema).toContain('${secret:NAME}');
  });

  it('migration moves plain secret values to the store and leaves references; a value edited meanwhile stays', async () => {
    const raw = {
      upstreams: {
        gh: { url: 'https://x.test', headers: { Authorization: 'Bearer ghp_X', Accept: 'text/plain' } },
        s: { command: 'x', env: { API_KEY: 'k-1', DEBUG: '1', ASKED: '${input:k}' } },
      },
    };
    const plans = planConfigMoves(raw);
    expect(plans.flatMap((p) => p.moves.map((m) => m.name))).toEqual(['upstreams.gh.headers.Authorization', 'upstreams.s.env.API_KEY']);
    const store = new MemorySecretStore();
    for (const p of plans) await storeMoves(p.moves, store);
    const edited = structuredClone(raw);
    edited.upstreams.s.env.API_KEY = 'k-2-typed-meanwhile';
    for (const p of plans) applyMoves(p.at(edited), p.moves);
    expect(edited.upstreams.gh.headers).toEqual({ Authorization: '${secret:upstreams.gh.headers.Authorization}', Accept: 'text/plain' });
    expect(edited.upstreams.s.env).toEqual({ API_KEY: 'k-2-typed-meanwhile', DEBUG: '1', ASKED: '${input:k}' });
    expect(await store.get('upstreams.gh.headers.Authorization')).toBe('Bearer ghp_X');
    expect(existsSync('/nonexistent')).toBe(false);
  });
});
