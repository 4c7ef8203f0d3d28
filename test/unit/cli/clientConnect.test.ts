// Which client entries reach this instance, and the edit that points a client at an agent: every URL
// form an agent endpoint takes, a file that does not exist yet, and a second run that changes nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentOfUrl, planConnect } from '../../../src-main/core/import/connect.js';
import { main } from '../../../src-main/cli/main.js';
import { tempDir } from '../../helpers/app.js';

const here = { ports: [4484] };

describe('agentOfUrl', () => {
  it('reads the agent from every endpoint form, on loopback at our port only', () => {
    expect(agentOfUrl('http://127.0.0.1:4484/mcp', here)).toBe('default');
    expect(agentOfUrl('http://localhost:4484/mcp/codex', here)).toBe('codex');
    expect(agentOfUrl('http://[::1]:4484/mcp/codex/mcp', here)).toBe('codex');
    expect(agentOfUrl('http://127.0.0.1:4484/codex/mcp', here)).toBe('codex');
    expect(agentOfUrl('http://127.0.0.1:4491/mcp', here)).toBeUndefined();
    expect(agentOfUrl('https://mcp.example.com/mcp', here)).toBeUndefined();
    expect(agentOfUrl('https://ws.example.com/mcp/a', { ports: [], hosts: ['ws.example.com'] })).toBe('a');
  });
});

describe('planConnect', () => {
  const base = { client: 'cursor' as const, format: 'mcpServers' as const, file: '/h/.cursor/mcp.json', entryName: 'toolbox', here };

  it('creates the file when there is none, and a second run changes nothing', () => {
    const first = planConnect({ ...base, text: undefined, url: 'http://127.0.0.1:4484/mcp' });
    expect(first.changed).toBe(true);
    expect(JSON.parse(first.text)).toEqual({ mcpServers: { toolbox: { url: 'http://127.0.0.1:4484/mcp' } } });
    const second = planConnect({ ...base, text: first.text, url: 'http://127.0.0.1:4484/mcp' });
    expect(second.changed).toBe(false);
    expect(second.text).toBe(first.text);
  });

  it('moves to another agent, and replaces an entry that reached here under another name', () => {
    const text = JSON.stringify({ mcpServers: { ws: { url: 'http://127.0.0.1:4484/mcp' }, other: { command: 'x' } } });
    const p = planConnect({ ...base, text, url: 'http://127.0.0.1:4484/mcp/codex' });
    expect(p.replaced).toEqual(['ws']);
    expect(JSON.parse(p.text).mcpServers).toEqual({ other: { command: 'x' }, toolbox: { url: 'http://127.0.0.1:4484/mcp/codex' } });
  });

  it("leaves Codex's inline server table alone and says what to do by hand", () => {
    const p = planConnect({
      ...base,
      client: 'codex',
      format: 'codex-toml',
      file: '/h/.codex/config.toml',
      text: 'mcp_servers = { a = { command = "x" } }\n',
      url: 'http://127.0.0.1:4484/mcp',
    });
    expect(p.editable).toBe(false);
    expect(p.summary).toMatch(/left as it is/);
  });
});

describe('mws doctor with no instance running', () => {
  // The clients' files are looked for under a HOME of the test's own, never the machine's.
  const realHome = process.env.HOME;
  beforeEach(() => void (process.env.HOME = tempDir()));
  afterEach(() => void (process.env.HOME = realHome));

  it('names a port another program holds, with the fix, and exits 1', async () => {
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const port = (srv.address() as { port: number }).port;
    const dir = tempDir();
    const cfg = join(dir, 'config.json');
    writeFileSync(cfg, JSON.stringify({ stateDir: join(dir, 'state'), listen: { port } }));
    let out = '';
    try {
      const code = await main(['doctor', '--config', cfg], { out: (s) => void (out += `${s}\n`), err: () => {} });
      expect(code).toBe(1);
    } finally {
      await new Promise((r) => srv.close(r));
    }
    expect(out).toMatch(
      new RegExp(
        `port\\s+problem\\s+Working Set is not running, and port ${port} on 127\\.0\\.0\\.1 is taken by another program: stop that program`,
      ),
    );
    expect(out).toMatch(/state folder\s+ok\s+The state folder .* will be created in /);
    expect(out).toMatch(/upstreams\s+note\s+Upstreams and the search model are checked when Working Set runs\./);
  });

  it('says a broken config in its own sentence', async () => {
    const dir = tempDir();
    const cfg = join(dir, 'config.json');
    writeFileSync(cfg, '{ "upstreams": ');
    let out = '';
    expect(await main(['doctor', '--config', cfg, '--json'], { out: (s) => void (out += s), err: () => {} })).toBe(1);
    const j = JSON.parse(out) as { findings: Array<{ check: string; level: string; text: string }> };
    expect(j.findings).toEqual([{ check: 'config', level: 'problem', text: expect.stringMatching(/is not valid JSON/) }]);
  });
});

describe('with no instance running', () => {
  const realHome = process.env.HOME;
  beforeEach(() => void (process.env.HOME = tempDir()));
  afterEach(() => void (process.env.HOME = realHome));
  const run = async (argv: string[]) => {
    let out = '';
    let err = '';
    const code = await main(argv, { out: (s) => void (out += `${s}\n`), err: (s) => void (err += `${s}\n`) });
    return { code, out, err };
  };

  it('client connect points at the port the config asks for', async () => {
    const dir = tempDir();
    const cfg = join(dir, 'config.json');
    writeFileSync(cfg, JSON.stringify({ stateDir: join(dir, 'state'), listen: { port: 45123 } }));
    const r = await run(['client', 'connect', 'cursor', '--config', cfg]);
    expect(r.code, r.err).toBe(0);
    const file = join(process.env.HOME!, '.cursor', 'mcp.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ mcpServers: { toolbox: { url: 'http://127.0.0.1:45123/mcp' } } });
    const list = await run(['client', 'list', '--config', cfg]);
    expect(list.out).toContain('Working Set will run at http://127.0.0.1:45123.');
    expect(list.out).toMatch(/^Cursor\s+\S+\s+yes: agent default \(as "toolbox"\)$/m);
  });

  it('upstream edit and remove work on the files', async () => {
    const dir = tempDir();
    const cfg = join(dir, 'config.json');
    writeFileSync(
      cfg,
      JSON.stringify({ stateDir: join(dir, 'state'), listen: { port: 0 }, upstreams: { gone: { url: 'http://127.0.0.1:9/mcp' } } }),
    );
    const e = await run(['upstream', 'edit', 'gone', '--config', cfg, '--header', 'X-A=1']);
    expect(e.code, e.err).toBe(0);
    expect(JSON.parse(readFileSync(cfg, 'utf8')).upstreams.gone).toEqual({ url: 'http://127.0.0.1:9/mcp', headers: { 'X-A': '1' } });
    const r = await run(['upstream', 'remove', 'gone', '--config', cfg]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(readFileSync(cfg, 'utf8')).upstreams).toEqual({});
  }, 60_000);
});
