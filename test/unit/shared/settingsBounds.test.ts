// The numbers the window's forms edit carry their bounds from the config schema (settings().bounds), so a
// label ("Cap (1–500)"), an input's min/max and a refusal's sentence never restate them by hand.
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../helpers/processes.js';
import { startAppFromFile, type FileApp } from '../../helpers/app.js';
import { fieldError, rangeText, withBounds } from '../../../src-main/shared/errorWords.js';

let a: FileApp | undefined;
afterEach(async () => {
  await a?.stop();
  a = undefined;
});

type Node = { properties?: Record<string, Node>; items?: Node; minimum?: number; maximum?: number };
const schema = JSON.parse(readFileSync(join(ROOT, 'config.schema.json'), 'utf8')) as Node;
const at = (...path: string[]) => path.reduce<Node | undefined>((n, k) => (k === '[]' ? n?.items : n?.properties?.[k]), schema)!;

describe("the settings' bounds", () => {
  it("are the published schema's, for every number a form edits", async () => {
    a = await startAppFromFile({});
    const { bounds } = await a.app.control.settings({});
    const expected = {
      cap: at('agents', '[]', 'cap'),
      idleWindowDays: at('agents', '[]', 'idleWindowDays'),
      port: at('listen', 'port'),
      minSessions: at('promote', 'minSessions'),
      minCalls: at('promote', 'minCalls'),
      windowDays: at('promote', 'windowDays'),
      pinDecayDays: at('promote', 'pinDecayDays'),
    };
    for (const [k, n] of Object.entries(expected)) expect(bounds[k as keyof typeof bounds], k).toEqual({ min: n.minimum, max: n.maximum });
    expect(rangeText(bounds.cap)).toBe(` (${expected.cap.minimum}–${expected.cap.maximum})`);
  });

  it("complete a refusal that carried none (a blank cap fails the argument check, before the config's)", () => {
    const blank = { message: 'updateAgent: cap must be a number', data: { path: 'cap', reason: 'must be a number', got: 'null' } };
    expect(fieldError(withBounds(blank, { cap: { min: 1, max: 500 } })).text).toBe(
      'Give the cap: how many tools the agent lists, a whole number from 1 to 500.',
    );
    // A refusal with its own bounds keeps them.
    const own = { message: 'x', data: { path: 'agents[0].cap', reason: 'too big', got: '900', min: 1, max: 9 } };
    expect(withBounds(own, { cap: { min: 1, max: 500 } })).toBe(own);
  });
});
