// How large a config may grow: each count and length the schema bounds is refused with a sentence that
// names the field and the bound, one past it, and accepted at it.
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { CONFIG_BOUNDS } from '../../../src-main/core/config/configSchema.js';
import type { MwsError } from '../../../src-main/core/errors.js';

function refusal(raw: unknown): MwsError {
  try {
    validateConfig(raw, '/state');
  } catch (err) {
    return err as MwsError;
  }
  throw new Error('expected a refusal');
}

const entries = (n: number, value = 'v') => Object.fromEntries(Array.from({ length: n }, (_, i) => [`K${i}`, value]));
const http = (headers: Record<string, string>) => ({ upstreams: { a: { url: 'http://127.0.0.1:1/mcp', headers } } });
const stdio = (more: object) => ({ upstreams: { a: { command: 'node', ...more } } });

describe('config size bounds', () => {
  it('refuses an upstream with more headers than the bound (100,000 once went in), keeps one at it', () => {
    expect(() => validateConfig(http(entries(CONFIG_BOUNDS.headers)), '/s')).not.toThrow();
    const e = refusal(http(entries(CONFIG_BOUNDS.headers + 1)));
    expect(e.code).toBe('config_invalid');
    expect(e.message).toBe(`config field "upstreams.a.headers" must have at most ${CONFIG_BOUNDS.headers} entries.`);
    expect(refusal(http(entries(100_000))).message).toMatch(/upstreams\.a\.headers" must have at most 100 entries/);
  });

  it('bounds env entries, args, and each value and name', () => {
    expect(refusal(stdio({ env: entries(CONFIG_BOUNDS.env + 1) })).message).toMatch(/"upstreams\.a\.env" must have at most 500 entries/);
    const args = Array.from({ length: CONFIG_BOUNDS.args + 1 }, () => 'x');
    expect(refusal(stdio({ args })).message).toMatch(/"upstreams\.a\.args" must have at most 1000 items/);
    const long = 'x'.repeat(CONFIG_BOUNDS.textLength + 1);
    expect(refusal(stdio({ env: { A: long } })).message).toMatch(/"upstreams\.a\.env\.A" must be at most 65536 characters long\.$/);
    // The value is a secret as likely as not: the sentence never echoes it.
    expect(refusal(stdio({ env: { A: long } })).message).not.toContain('xxxx');
    expect(refusal(stdio({ args: [long] })).message).toMatch(/"upstreams\.a\.args\[0\]" must be at most 65536 characters/);
    expect(refusal(http({ ['H'.repeat(CONFIG_BOUNDS.nameLength + 1)]: 'v' })).message).toMatch(/has a name over 256 characters long/);
  });

  it('bounds upstreams, agents and pins', () => {
    const upstreams = Object.fromEntries(Array.from({ length: CONFIG_BOUNDS.upstreams + 1 }, (_, i) => [`u${i}`, { builtin: 'demo' }]));
    expect(refusal({ upstreams }).message).toMatch(/"upstreams" must have at most 500 entries/);
    const agents = Array.from({ length: CONFIG_BOUNDS.agents + 1 }, (_, i) => ({ id: `a${i}` }));
    expect(refusal({ agents }).message).toMatch(/"agents" must have at most 200 items/);
    const pins = Array.from({ length: CONFIG_BOUNDS.pins + 1 }, (_, i) => `t${i}`);
    expect(refusal({ agents: [{ id: 'a', pins }] }).message).toMatch(/"agents\[0\]\.pins" must have at most 2000 items/);
    expect(refusal({ pins }).message).toMatch(/"pins" must have at most 2000 items/);
  });
});
