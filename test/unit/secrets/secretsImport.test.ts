// `mws import` keeps secrets out of config.json: secret header and env values go to the secret store and
// the file names them by reference; values a client asks its user for stay placeholders; an envFile is
// made absolute against the client config's folder, and Codex's bearer_token_env_var is kept.
import { describe, expect, it } from 'vitest';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../helpers/processes.js';
import { tempDir } from '../../helpers/app.js';
import { applyImport } from '../../../src-main/core/import/service.js';
import { ConfigEditor } from '../../../src-main/core/config/editor.js';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import { FileSecretStore } from '../../../src-main/core/secrets/store.js';
import { resolveUpstream } from '../../../src-main/core/secrets/refs.js';

function layout() {
  const dir = tempDir('mws-import-secrets-');
  cpSync(join(ROOT, 'test', 'fixtures', 'import'), dir, { recursive: true });
  const where = { home: join(dir, 'home'), projectDir: join(dir, 'project'), platform: 'linux' as const };
  const cfg = join(dir, 'config.json');
  writeFileSync(cfg, JSON.stringify({ upstreams: {} }, null, 2));
  const raw = JSON.parse(readFileSync(cfg, 'utf8')) as Record<string, unknown>;
  const state = join(dir, 'state');
  const editor = new ConfigEditor(cfg, raw, state, async () => {});
  const secrets = new FileSecretStore(state, new MemoryLogger());
  const parts = {
    config: validateConfig(raw, state),
    editor,
    configPath: cfg,
    agentUrl: () => 'http://127.0.0.1:4484/mcp',
    now: () => Date.parse('2026-11-30T06:00:00Z'),
    where,
    secrets,
  };
  return { dir, where, cfg, parts, secrets, state };
}

describe('import moves secret values into the secret store', () => {
  it('Claude Desktop, Claude Code and Codex: config.json holds no secret value after import, and the references resolve to them', async () => {
    const { where, cfg, parts, secrets, state } = layout();
    const r1 = await applyImport({ file: join(where.home, '.config', 'Claude', 'claude_desktop_config.json') }, parts);
    const r2 = await applyImport({ file: join(where.home, '.claude.json') }, parts);
    const r3 = await applyImport({ file: join(where.home, '.codex', 'config.toml') }, parts);
    expect([...r1.secretsStored!, ...r2.secretsStored!, ...r3.secretsStored!]).toEqual([
      'github: env.GITHUB_PERSONAL_ACCESS_TOKEN',
      'sentry: headers.Authorization',
      'context7: env.CONTEXT7_API_KEY',
    ]);
    const text = readFileSync(cfg, 'utf8');
    // Grep the file as a person would: no fixture secret is in it.
    expect(text).not.toMatch(/SECRETVALUE|ghp_|sntrys_|c7_/);
    const saved = JSON.parse(text);
    expect(saved.upstreams.sentry.headers).toEqual({ Authorization: '${secret:upstreams.sentry.headers.Authorization}' });
    expect(saved.upstreams.github.env).toEqual({
      GITHUB_PERSONAL_ACCESS_TOKEN: '${secret:upstreams.github.env.GITHUB_PERSONAL_ACCESS_TOKEN}',
    });
    // Codex's bearer_token_env_var is kept as the upstream's own field.
    expect(saved.upstreams.figma).toEqual({ url: 'https://mcp.figma.com/mcp', bearerTokenEnvVar: 'FIGMA_OAUTH_TOKEN' });
    expect(readFileSync(join(state, 'secrets.json'), 'utf8')).toContain('sntrys_SECRETVALUE');
    const config = validateConfig(saved, state);
    const sentry = await resolveUpstream('sentry', config.upstreams.sentry!, { secrets, env: {} });
    expect(sentry.ok && sentry.config.kind === 'http' && sentry.config.headers.Authorization).toBe('Bearer sntrys_SECRETVALUE');
    expect(await resolveUpstream('figma', config.upstreams.figma!, { secrets, env: {} })).toEqual({
      ok: false,
      needs: ['FIGMA_OAUTH_TOKEN'],
    });
  });

  it('VS Code: ${input:…} stays a placeholder (nothing to store yet), and envFile becomes absolute against the workspace', async () => {
    const { where, cfg, parts, secrets } = layout();
    const file = join(where.projectDir, '.vscode', 'mcp.json');
    const text = readFileSync(file, 'utf8')
      .replace('"fetch": {', '"fetch": {\n      "envFile": "${workspaceFolder}/.env",')
      .replace('"type": "http",', '"type": "http", "headers": { "X-Api-Key": "${input:gh-key}" },');
    writeFileSync(file, text);
    mkdirSync(where.projectDir, { recursive: true });
    writeFileSync(join(where.projectDir, '.env'), 'FETCH_TOKEN=tok-from-env-file\n');
    const r = await applyImport({ file }, parts);
    expect(r.secretsStored).toEqual([]);
    const saved = JSON.parse(readFileSync(cfg, 'utf8'));
    expect(saved.upstreams.perplexity.env).toEqual({ PERPLEXITY_API_KEY: '${input:perplexity-key}' });
    expect(saved.upstreams.github.headers).toEqual({ 'X-Api-Key': '${input:gh-key}' });
    expect(saved.upstreams.fetch.envFile).toBe(join(where.projectDir, '.env'));
    const config = validateConfig(saved, parts.config.stateDir);
    expect(await resolveUpstream('perplexity', config.upstreams.perplexity!, { secrets, env: {} })).toEqual({
      ok: false,
      needs: ['perplexity-key'],
    });
    const fetch = await resolveUpstream('fetch', config.upstreams.fetch!, { secrets, env: {} });
    expect(fetch.ok && fetch.config.kind === 'stdio' && fetch.config.env).toEqual({ FETCH_TOKEN: 'tok-from-env-file' });
    // A relative envFile is taken from the client config's own folder.
    const other = layout();
    const otherFile = join(other.where.projectDir, '.vscode', 'mcp.json');
    writeFileSync(otherFile, text.replace('"${workspaceFolder}/.env"', '"local.env"'));
    await applyImport({ file: otherFile, names: ['fetch'] }, other.parts);
    expect(JSON.parse(readFileSync(other.cfg, 'utf8')).upstreams.fetch.envFile).toBe(join(other.where.projectDir, '.vscode', 'local.env'));
  });

  it("Claude Code: its ${VAR} and ${VAR:-default} become ${env:…}, read from mws's environment when connecting", async () => {
    const { where, cfg, parts, secrets } = layout();
    // The user's own file (a project's ${VAR} becomes a value to give: secretsAttack.test.ts).
    const file = join(where.home, '.claude.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          api: { command: 'npx', args: ['-y', 'api-mcp', '--region', '${REGION:-eu}'], env: { API_KEY: '${API_KEY}', PLAIN: 'x' } },
        },
      }),
    );
    const r = await applyImport({ file }, parts);
    expect(r.secretsStored).toEqual([]);
    const saved = JSON.parse(readFileSync(cfg, 'utf8'));
    expect(saved.upstreams.api).toEqual({
      command: 'npx',
      args: ['-y', 'api-mcp', '--region', '${env:REGION:-eu}'],
      env: { API_KEY: '${env:API_KEY}', PLAIN: 'x' },
    });
    const config = validateConfig(saved, parts.config.stateDir);
    expect(await resolveUpstream('api', config.upstreams.api!, { secrets, env: {} })).toEqual({ ok: false, needs: ['API_KEY'] });
    const ok = await resolveUpstream('api', config.upstreams.api!, { secrets, env: { API_KEY: 'k-from-env', REGION: '' } });
    expect(ok.ok && ok.config.kind === 'stdio' && [ok.config.args, ok.config.env]).toEqual([
      ['-y', 'api-mcp', '--region', 'eu'],
      { API_KEY: 'k-from-env', PLAIN: 'x' },
    ]);
  });
});
