// `mws import … --dry-run` as a person runs it, and then pastes what it prints: a
// project's .mcp.json with a server named `x$(touch pwned)` and names holding ESC/OSC/BEL/newlines.
// Every printed command goes through a real `bash -c`; nothing may be created, and the terminal gets
// no raw control character.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMws } from '../helpers/processes.js';
import { tempDir } from '../helpers/app.js';

describe('mws import prints nothing that runs', () => {
  it('quotes a hostile project server name for the shell and escapes terminal controls', async () => {
    const dir = tempDir('mws-paste-');
    const home = join(dir, 'home');
    const project = join(dir, 'project');
    mkdirSync(home);
    mkdirSync(project);
    const cfg = join(dir, 'config.json');
    writeFileSync(cfg, JSON.stringify({ stateDir: join(dir, 'state'), upstreams: {} }));
    const names = ['x$(touch pwned)', '`touch pwned2`', 'osc\u001b]52;c;ZWNobyBoaQ==\u0007', 'nl\ntouch pwned3', 'bel\u0007\u009b2J'];
    writeFileSync(
      join(project, '.mcp.json'),
      JSON.stringify({ mcpServers: Object.fromEntries(names.map((n, i) => [n, { command: 'echo', args: [String(i)] }])) }),
    );
    const r = await runMws(['import', join(project, '.mcp.json'), '--dry-run', '--config', cfg], { HOME: home });
    expect(r.code, r.err).toBe(0);
    expect(r.out + r.err).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    const run = r.out.split('\n');
    const commands = run
      .slice(run.indexOf('Run:') + 1)
      .filter((l) => l.startsWith('  '))
      .map((l) => l.trim());
    expect(commands.filter((c) => c.includes('claude mcp remove'))).toEqual([
      `(cd ${project} && claude mcp remove 'x$(touch pwned)' -s project)`,
      `(cd ${project} && claude mcp remove '\`touch pwned2\`' -s project)`,
    ]);
    expect(r.out).toMatch(/Remove "osc\\e]52;c;ZWNobyBoaQ==\\a", "nl\\ntouch pwned3", "bel\\a\\x9b2J" by hand/);

    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'claude'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const work = join(dir, 'work');
    mkdirSync(work);
    for (const c of commands) execFileSync('bash', ['-c', c], { cwd: work, env: { PATH: `${bin}:/usr/bin:/bin`, HOME: home } });
    expect(readdirSync(work)).toEqual([]);
    expect(readdirSync(project)).toEqual(['.mcp.json']);
    expect(readdirSync(home)).toEqual([]);
  }, 60_000);
});
