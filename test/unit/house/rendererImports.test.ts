// The window knows the core only through its contract: every import from src-renderer into src-main/core
// is `import type` from control/contract.ts, so no core code reaches the page and no screen reaches past
// the ControlApi into the core's parts. (src-main/shared holds the pure words both sides show.)
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT } from '../../helpers/processes.js';

const RENDERER = join(ROOT, 'src-renderer', 'src');
const CORE = join(ROOT, 'src-main', 'core');
const CONTRACT = join(CORE, 'control', 'contract');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|svelte)$/.test(p) ? [p] : [];
  });
}

/** Each static or dynamic import of a file: its specifier and whether it is type-only. */
export function importsOf(source: string): Array<{ spec: string; typeOnly: boolean }> {
  const out: Array<{ spec: string; typeOnly: boolean }> = [];
  for (const m of source.matchAll(/\b(import|export)\s+(type\s+)?([^'";]*?)\bfrom\s+['"]([^'"]+)['"]/g))
    out.push({ spec: m[4]!, typeOnly: m[2] !== undefined });
  for (const m of source.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|\bimport\s+['"]([^'"]+)['"]/g))
    out.push({ spec: (m[1] ?? m[2])!, typeOnly: false });
  return out;
}

/** Imports of src-renderer that land in src-main/core and are not `import type` from the contract. */
export function offenders(): string[] {
  const bad: string[] = [];
  for (const file of files(RENDERER)) {
    for (const { spec, typeOnly } of importsOf(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = resolve(dirname(file), spec).replace(/\.(js|ts)$/, '');
      if (!target.startsWith(CORE)) continue;
      if (target !== CONTRACT) bad.push(`${relative(ROOT, file)} → ${spec} (only control/contract.ts)`);
      else if (!typeOnly) bad.push(`${relative(ROOT, file)} → ${spec} (import type only: no core code on the page)`);
    }
  }
  return bad;
}

describe("the renderer's door to the core", () => {
  it('imports only types, only from control/contract.ts', () => {
    expect(offenders()).toEqual([]);
  });

  it('the check sees what it must refuse', () => {
    expect(importsOf("import type { A } from '../x';\nimport { b } from './y';\nconst m = await import('../z');")).toEqual([
      { spec: '../x', typeOnly: true },
      { spec: './y', typeOnly: false },
      { spec: '../z', typeOnly: false },
    ]);
    expect(importsOf("  import type { StatusView } from '../../../src-main/core/control/api';")).toEqual([
      { spec: '../../../src-main/core/control/api', typeOnly: true },
    ]);
  });

  it('the contract itself pulls nothing but zod and the shared words at run time, so a type import of it stays types', () => {
    const runtime = importsOf(readFileSync(`${CONTRACT}.ts`, 'utf8')).filter((i) => !i.typeOnly);
    expect(runtime.map((i) => i.spec).filter((s) => !s.startsWith('../../shared/'))).toEqual(['zod']);
  });
});
