// A child that ends says why: its last line of stderr is known once the child has closed, however much
// it wrote before.
import { describe, expect, it } from 'vitest';
import { spawnScript } from '../../../src-main/core/childScript.js';

describe('spawnScript', () => {
  it("keeps the last line of a long stderr, read to its end by 'close'", async () => {
    const script = "process.stderr.write('noise\\n'.repeat(200000)); process.stderr.write('the last line\\n'); process.exitCode = 3;";
    const { child, lastError } = spawnScript(script, 'yaml', { stdin: 'ignore', stdout: 'ignore' });
    const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
    expect(code).toBe(3);
    expect(lastError()).toBe('the last line');
  });
});
