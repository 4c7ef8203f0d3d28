// The CLI's and the config's words: a mistyped top-level flag gets a suggestion,
// help says what report, cycle and sweep do, config syntax errors give line and column, an unknown
// config field gets "did you mean".
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../../src-main/cli/main.js';
import { loadConfig } from '../../../src-main/core/config/load.js';
import { tempDir } from '../../helpers/app.js';

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (s) => void (out += `${s}\n`), err: (s) => void (err += `${s}\n`) });
  return { code, out, err };
}

describe('mws words', () => {
  it('mws --verison suggests --version', async () => {
    expect(await run('--verison')).toMatchObject({
      code: 2,
      err: 'mws: There is no option --verison; did you mean --version? (`mws --help` lists the commands.)\n',
    });
  });

  it('report, cycle and sweep say that without --agent they cover every agent; sweep does not say "would" of what it does', async () => {
    for (const c of ['report', 'cycle', 'sweep']) {
      const { out } = await run(c, '--help');
      expect(out).toMatch(/--agent ID\s+only this agent \(default: every agent\)/);
    }
    const sweep = (await run('sweep', '--help')).out;
    expect(sweep.split('\n')[0]).toBe('mws sweep: demote idle tools now (with --dry-run: what a sweep would demote at a given time)');
  });
});

describe('config errors', () => {
  const file = (text: string) => {
    const p = join(tempDir('mws-words-'), 'config.json');
    writeFileSync(p, text);
    return p;
  };

  it('a JSON syntax error names its line and column, not a character offset', async () => {
    await expect(loadConfig(file('{\n  "listen": {"port": 1,}\n}\n'))).rejects.toThrow(
      /is not valid JSON: Expected double-quoted property name on line 2, column 24\. Fix the file/,
    );
    await expect(loadConfig(file('{"a": 1'))).rejects.toThrow(/on line 1, column 8\./);
    await expect(loadConfig(file(''))).rejects.toThrow(/the file ends too early on line 1, column 1/);
  });

  it('an unknown field gets the closest known one', async () => {
    await expect(loadConfig(file('{"listn": {"port": 1}}'))).rejects.toThrow(
      /config field "listn" is not a known field \(did you mean "listen"\?\); known fields here:/,
    );
    await expect(loadConfig(file('{"upstreams": {"a": {"command": "x", "argz": []}}}'))).rejects.toThrow(
      /"upstreams\.a\.argz" is not a known field \(did you mean "args"\?\)/,
    );
  });
});

describe('CLI tables', () => {
  it('show control characters in a cell escaped, so a tool or server name cannot drive the terminal', async () => {
    const { table } = await import('../../../src-main/cli/table.js');
    expect(table(['name'], [['mail\u001b]0;x\u0007'], ['a\nb']])).toBe('name\nmail\\e]0;x\\a\na\\nb');
  });
});

describe('one fuzzy matcher for "did you mean" and typo tolerance', () => {
  it('counts a swap of two letters as one edit, in both uses', async () => {
    const { closest, editDistance } = await import('../../../src-main/core/fuzzy.js');
    const { editDistance: typoDistance } = await import('../../../src-main/core/search/typo.js');
    expect(typoDistance).toBe(editDistance);
    expect(editDistance('cofnig', 'config', 2)).toBe(1);
    expect(closest('cofnig', ['config', 'cycle'])).toBe('config');
    expect(closest('sta', ['status', 'stop'])).toBe('status');
    expect(closest('zzzzzz', ['config'])).toBeUndefined();
  });
});
