// Import's client edit leaves no server Working Set already serves: one imported earlier (from this or
// another client, its secret since moved to the store) is taken out with the ones imported now, so
// its tools are not listed twice; and the scan does not offer it again.
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigEditor } from '../../../src-main/core/config/editor.js';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { applyImport } from '../../../src-main/core/import/service.js';
import { judge } from '../../../src-main/core/import/offers.js';
import { tempDir } from '../../helpers/app.js';

const URL = 'http://127.0.0.1:4484/mcp';

function setup(upstreams: Record<string, unknown>) {
  const dir = tempDir('mws-dup-');
  const cfg = join(dir, 'config.json');
  writeFileSync(cfg, JSON.stringify({ serverName: 'toolbox', upstreams }, null, 2));
  const raw = JSON.parse(readFileSync(cfg, 'utf8')) as Record<string, unknown>;
  const editor = new ConfigEditor(cfg, raw, join(dir, 'state'), async () => {});
  const config = validateConfig(raw, join(dir, 'state'));
  return { dir, parts: { config, editor, configPath: cfg, agentUrl: () => URL, now: () => 0, ports: [4484] } };
}

describe('a server Working Set already serves', () => {
  it('leaves the client file with the new ones, also when its secret was moved to the store', async () => {
    const { dir, parts } = setup({
      github: { command: 'npx', args: ['-y', 'gh-mcp'], env: { GITHUB_TOKEN: '${secret:upstreams.github.env.GITHUB_TOKEN}' } },
    });
    const file = join(dir, 'mcp.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          gh: { command: 'npx', args: ['-y', 'gh-mcp'], env: { GITHUB_TOKEN: 'ghp_real' } },
          notes: { command: 'notes-mcp' },
          keep: { url: 'https://elsewhere.example/mcp' },
        },
      }),
    );
    const r = await applyImport({ file, names: ['notes'], dryRun: true }, parts as never);
    expect(r.added.map((a) => a.name)).toEqual(['notes']);
    const edited = JSON.parse(r.clientEdit.text) as { mcpServers: Record<string, unknown> };
    // gh is the upstream "github" already: out with notes; keep was not chosen and stays.
    expect(Object.keys(edited.mcpServers).sort()).toEqual(['keep', 'toolbox']);
  });

  it('is not offered again', () => {
    const blocked = judge(
      [{ name: 'gh', vendor: 'gh', upstream: { command: 'npx', args: ['-y', 'gh-mcp'], env: { GITHUB_TOKEN: 'ghp_real' } } } as never],
      {
        upstreams: {
          github: { command: 'npx', args: ['-y', 'gh-mcp'], env: { GITHUB_TOKEN: '${secret:upstreams.github.env.GITHUB_TOKEN}' } },
        },
      },
    );
    expect(blocked[0]?.kind).toBe('duplicate');
  });
});
