// Import against files a careless user or an attacker wrote: names that are shell code or terminal
// escapes, Working Set's own entries, duplicates and taken names, TOML the line editor could break,
// JSON nested past any stack, and a ~/.claude.json of hundreds of MB read while the proxy serves.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { tempDir } from '../../helpers/app.js';
import { applyImport, scanImports } from '../../../src-main/core/import/service.js';
import { ConfigEditor } from '../../../src-main/core/config/editor.js';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { initialConfigText } from '../../../src-main/core/config/defaults.js';
import { printable, shellLine } from '../../../src-main/core/printable.js';
import { sourcesTable } from '../../../src-main/cli/commands/import.js';

const URL = 'http://127.0.0.1:4484/mcp';

function setup(upstreams: Record<string, unknown> = {}, text?: string) {
  const dir = tempDir('mws-hostile-');
  const cfg = join(dir, 'config.json');
  writeFileSync(cfg, text ?? JSON.stringify({ serverName: 'toolbox', upstreams }, null, 2));
  const raw = JSON.parse(readFileSync(cfg, 'utf8')) as Record<string, unknown>;
  const editor = new ConfigEditor(cfg, raw, join(dir, 'state'), async () => {});
  const config = validateConfig(raw, join(dir, 'state'));
  const parts = { config, editor, configPath: cfg, agentUrl: () => URL, now: () => Date.parse('2026-12-01T06:00:00Z'), ports: [4484] };
  return { dir, cfg, parts };
}

const ctxOf = (parts: ReturnType<typeof setup>['parts']) => ({
  self: { serverName: 'toolbox', ports: [4484, 4485] },
  upstreams: (parts.editor.current().upstreams ?? {}) as Record<string, unknown>,
});

/** Runs each line through a real bash in a fresh folder, and answers what it created there. */
function pasteIntoBash(lines: string[]): string[] {
  const dir = tempDir('mws-paste-');
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  // A stand-in `claude` that does nothing, so only what the quoting lets through can act.
  writeFileSync(join(bin, 'claude'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  const work = join(dir, 'work');
  mkdirSync(work);
  for (const line of lines) execFileSync('bash', ['-c', line], { cwd: work, env: { PATH: `${bin}:/usr/bin:/bin` } });
  return readdirSync(work);
}

describe('nothing printed can run', () => {
  it('a project server named x$(touch pwned): the printed claude commands are quoted, and bash creates nothing', async () => {
    const { dir, parts } = setup();
    const project = join(dir, 'project');
    mkdirSync(project);
    const names = ['x$(touch pwned)', '`touch pwned2`', "it's; touch pwned3", 'a && touch pwned4'];
    writeFileSync(
      join(project, '.mcp.json'),
      JSON.stringify({ mcpServers: Object.fromEntries(names.map((n, i) => [n, { command: 'echo', args: [String(i)] }])) }),
    );
    const r = await applyImport({ file: join(project, '.mcp.json'), dryRun: true }, parts);
    const removes = r.clientEdit.commands.filter((c) => c.includes('remove'));
    expect(removes).toHaveLength(4);
    // The project's scope, in the project's folder.
    expect(removes[0]).toBe(`(cd ${project} && claude mcp remove 'x$(touch pwned)' -s project)`);
    expect(pasteIntoBash(r.clientEdit.commands)).toEqual([]);
    expect(readdirSync(project).sort()).toEqual(['.mcp.json']);
  });

  it('names holding ESC, OSC, BEL, C1 or a newline get no command to paste, and every listing shows them escaped', async () => {
    const { dir, parts } = setup();
    const evil = ['osc\u001b]0;owned\u0007', 'nl\ntouch pwned', 'csi\u009b31m', 'esc\u001b[2J'];
    const file = join(dir, '.mcp.json');
    writeFileSync(
      file,
      JSON.stringify({ mcpServers: Object.fromEntries(evil.map((n, i) => [n, { command: 'echo', args: [String(i)] }])) }),
    );
    const r = await applyImport({ file, dryRun: true }, parts);
    expect(r.clientEdit.commands.filter((c) => c.includes('remove'))).toEqual([]);
    expect(r.clientEdit.summary).toMatch(/by hand/);
    expect(r.clientEdit.summary).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(r.clientEdit.summary).toContain('osc\\e]0;owned\\a');
    const table = sourcesTable(await scanImports({ file }, {}, ctxOf(parts)));
    expect(table).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(table).toContain('nl\\ntouch pwned');
    expect(table).toContain('csi\\x9b31m');
    expect(printable('a\u2028b')).toBe('a\\x2028b');
    expect(shellLine(['ok', 'a\nb'])).toBeUndefined();
  });
});

describe('import knows Working Set and what is already here', () => {
  it('never offers its own entries (by URL at any of its ports, through mcp-remote, or by serverName), and removes them in the edit', async () => {
    const { dir, parts, cfg } = setup();
    const file = join(dir, 'claude_desktop_config.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          toolbox: { command: 'npx', args: ['-y', 'mcp-remote', URL] },
          'ws-old-port': { type: 'http', url: 'http://localhost:4485/mcp/coder' },
          ws: { command: 'npx', args: ['-y', 'mcp-remote', 'http://127.0.0.1:4485/mcp'] },
          real: { command: 'echo', args: ['real'] },
        },
      }),
    );
    const [s] = await scanImports({ file }, {}, ctxOf(parts));
    expect(s!.servers.filter((x) => x.blocked?.kind === 'self').map((x) => x.name)).toEqual(['toolbox', 'ws-old-port', 'ws']);
    const r = await applyImport({ file, ...{ names: undefined } }, { ...parts, ports: [4484, 4485] });
    expect(r.added.map((a) => a.vendor)).toEqual(['real']);
    expect(r.skipped.map((k) => k.name)).toEqual(['toolbox', 'ws-old-port', 'ws']);
    expect(Object.keys(JSON.parse(readFileSync(cfg, 'utf8')).upstreams)).toEqual(['real']);
    // The client ends with one Working Set entry, not the old ones beside it.
    expect(Object.keys(JSON.parse(r.clientEdit.text).mcpServers)).toEqual(['toolbox']);
  });

  it('a duplicate under another name is reported, not imported twice; a taken name can be imported as another', async () => {
    const { dir, parts, cfg } = setup({
      memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], env: { MEMORY_FILE_PATH: '/a' } },
    });
    const file = join(dir, 'mcp.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          'mem-again': { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], env: { MEMORY_FILE_PATH: '/a' } },
          memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], env: { MEMORY_FILE_PATH: '/b' } },
          web: { url: 'https://example.test/mcp' },
          'web-twin': { url: 'https://example.test/mcp/' },
        },
      }),
    );
    const [s] = await scanImports({ file }, {}, ctxOf(parts));
    const by = Object.fromEntries(s!.servers.map((x) => [x.name, x.blocked]));
    expect(by['mem-again']).toMatchObject({ kind: 'duplicate', reason: expect.stringMatching(/same server as the upstream "memory"/) });
    expect(by.memory).toMatchObject({ kind: 'exists', suggested: 'memory-2' });
    expect(by.web).toBeUndefined();
    expect(by['web-twin']).toMatchObject({ kind: 'duplicate', reason: expect.stringMatching(/"web" above/) });
    const r = await applyImport({ file, as: { memory: 'memory-b' } }, parts);
    expect(r.added).toEqual([
      { name: 'memory', vendor: 'memory-b' },
      { name: 'web', vendor: 'web' },
    ]);
    const ups = JSON.parse(readFileSync(cfg, 'utf8')).upstreams;
    expect(ups.memory.env).toEqual({ MEMORY_FILE_PATH: '/a' }); // the saved one is never replaced
    expect(ups['memory-b'].env).toEqual({ MEMORY_FILE_PATH: '/b' });
    await expect(applyImport({ file, as: { memory: 'Not A Slug' } }, parts)).rejects.toThrow(/lowercase letters, digits and dashes/);
  });

  it('mws init\'s untouched sample "everything" gives way to a real one, and an identical one is a duplicate', async () => {
    const { dir, parts, cfg } = setup({}, initialConfigText());
    const file = join(dir, 'mcp.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { everything: { command: 'node', args: ['/opt/everything/index.js'] } } }));
    const r = await applyImport({ file }, parts);
    expect(r).toMatchObject({ added: [{ vendor: 'everything' }], replaced: ['everything'] });
    expect(JSON.parse(readFileSync(cfg, 'utf8')).upstreams.everything).toEqual({ command: 'node', args: ['/opt/everything/index.js'] });
    const again = setup({}, initialConfigText());
    writeFileSync(
      file,
      JSON.stringify({ mcpServers: { everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } } }),
    );
    expect((await applyImport({ file }, again.parts)).skipped).toMatchObject([
      { name: 'everything', reason: expect.stringMatching(/same server/) },
    ]);
  });
});

describe("names that are also JavaScript's", () => {
  it('a server named constructor or toString is added under a name of its own, not taken for an existing upstream', async () => {
    const { dir, parts, cfg } = setup();
    const file = join(dir, 'mcp.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          constructor: { command: 'echo', args: ['a'] },
          toString: { command: 'echo', args: ['b'] },
          __proto__x: { command: 'echo', args: ['c'] },
        },
      }),
    );
    const r = await applyImport({ file }, parts);
    expect(r.replaced).toBeUndefined();
    expect(r.added.map((a) => a.vendor)).toEqual(['constructor-server', 'tostring', 'proto-x']);
    expect(Object.keys(JSON.parse(readFileSync(cfg, 'utf8')).upstreams)).toEqual(['constructor-server', 'tostring', 'proto-x']);
  });
});

describe('files the editors could break', () => {
  it('TOML: a """ string holding a [mcp_servers.x] line is kept, and the edit means exactly what it should', async () => {
    const { dir, parts } = setup();
    const file = join(dir, 'config.toml');
    writeFileSync(file, 'note = """\n[mcp_servers.y]\nnot a table\n"""\n\n[mcp_servers.y]\ncommand = "echo"\n\n[other]\nk = 1\n');
    const r = await applyImport({ file, dryRun: true }, parts);
    expect(r.clientEdit.editable).toBe(true);
    expect(parseToml(r.clientEdit.text)).toEqual({
      note: '[mcp_servers.y]\nnot a table\n',
      other: { k: 1 },
      mcp_servers: { toolbox: { url: URL, tool_timeout_sec: 180 } },
    });
  });

  it('TOML with an inline mcp_servers table: no stack trace; the edit is refused, the file and config stay as they are', async () => {
    const { dir, parts, cfg } = setup();
    const file = join(dir, 'config.toml');
    const text = 'mcp_servers = { x = { command = "echo" } }\n';
    writeFileSync(file, text);
    const before = readFileSync(cfg, 'utf8');
    const r = await applyImport({ file, dryRun: true }, parts);
    expect(r.clientEdit).toMatchObject({ editable: false, summary: expect.stringMatching(/cannot be edited line by line/) });
    await expect(applyImport({ file, writeClient: true }, parts)).rejects.toThrow(/Nothing was imported/);
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(readFileSync(cfg, 'utf8')).toBe(before);
  });

  it('JSON nested 20,000 or 100,000 levels deep gets a sentence, not a stack overflow', async () => {
    const { dir } = setup();
    const file = join(dir, 'deep.json');
    for (const depth of [20_000, 100_000]) {
      writeFileSync(file, `{"mcpServers": {"a": {"command": "x", "args": ${'['.repeat(depth)}${']'.repeat(depth)}}}}`);
      await expect(scanImports({ file })).rejects.toThrow(/deep\.json is not valid JSON \(it nests too deeply/);
    }
    const n = 100_000;
    const toml = join(dir, 'deep.toml');
    writeFileSync(toml, `x = ${'['.repeat(n)}${']'.repeat(n)}\n`);
    await expect(scanImports({ file: toml })).rejects.toThrow(/deep\.toml is not valid TOML/);
  });

  it('a relative path with no folder to resolve it against is refused with a sentence; ~ is the home folder', async () => {
    await expect(scanImports({ file: 'project/.mcp.json' })).rejects.toThrow(
      /not a full path; give the whole path \(it may start with ~\//,
    );
    await expect(scanImports({ file: '~/surely-not-here/.mcp.json' })).rejects.toThrow(
      new RegExp(`There is no file ${process.env.HOME}/surely-not-here`),
    );
  });
});

describe('a huge ~/.claude.json', () => {
  it(
    "is read off the event loop: a 60 MB scan adds no stall (p99 within 100 ms of the machine's own noise)",
    { timeout: 300_000 },
    async () => {
      const { dir } = setup();
      const file = join(dir, '.claude.json');
      // Claude Code keeps each project's history in this file: many projects, long histories.
      const history = JSON.stringify(
        Array.from({ length: 200 }, (_, i) => ({ display: `a prompt of some length number ${i} `.repeat(4), pastedContents: {} })),
      );
      // Written in pieces, so this test's own heap (and its garbage collection) stays small.
      writeFileSync(file, '{"mcpServers": {"mem": {"command": "npx", "args": ["m"]}}, "projects": {');
      for (let i = 0; i * history.length < 60e6; i++)
        appendFileSync(file, `${i ? ',' : ''}"/home/u/p${i}": {"history": ${history}, "mcpServers": {}}`);
      appendFileSync(file, '}}');
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      await new Promise((r) => setTimeout(r, 50)); // the monitor measures from its first tick on
      const started = performance.now();
      const [s] = await scanImports({ file });
      const took = performance.now() - started;
      delay.disable();
      const scanMax = delay.max / 1e6;
      rmSync(file);
      // The machine's own noise over as long a stretch with nothing to do (other jobs share the 2 cores):
      // reading the file on the loop held it for seconds; noise alone stays far below that.
      const quiet = monitorEventLoopDelay({ resolution: 10 });
      quiet.enable();
      await new Promise((r) => setTimeout(r, Math.min(took, 15_000)));
      quiet.disable();
      expect(s!.servers.map((x) => x.name)).toEqual(['mem']);
      // Parsed on the loop, this file held it for 1.5 s and more in one stretch. In the worker, the loop's
      // delays stay those of a busy machine: p99 within 100 ms of the quiet stretch's, and no stall near a
      // parse (at load ~20 on 2 cores: max 140-180 ms while the worker's GC threads take a core, 26-40 ms quiet).
      expect(delay.percentile(99) / 1e6).toBeLessThan(100 + quiet.percentile(99) / 1e6);
      expect(scanMax).toBeLessThan(500 + quiet.max / 1e6);
    },
  );
});
