// The composition root reads top to bottom: no closure in createApp uses a part declared further down
// (a callback that reaches `router` before `router` exists works only by the accident of when it runs).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { ROOT } from '../../helpers/processes.js';

/** Names declared in the body of `fn` in `source`, referenced (in any closure) before their declaration. */
export function usesBeforeDeclaration(source: string, fn: string): string[] {
  const file = ts.createSourceFile('app.ts', source, ts.ScriptTarget.Latest, true);
  let body: ts.Block | undefined;
  file.forEachChild((n) => {
    if (ts.isFunctionDeclaration(n) && n.name?.text === fn) body = n.body;
  });
  if (!body) throw new Error(`no function ${fn}`);
  const declaredAt = new Map<string, number>();
  for (const st of body.statements) {
    if (!ts.isVariableStatement(st)) continue;
    for (const d of st.declarationList.declarations) {
      const names = ts.isIdentifier(d.name)
        ? [d.name]
        : d.name.elements.flatMap((e) => (ts.isBindingElement(e) && ts.isIdentifier(e.name) ? [e.name] : []));
      for (const n of names) declaredAt.set(n.text, n.getStart());
    }
  }
  const bad = new Set<string>();
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n)) {
      const p = n.parent;
      const isName =
        (ts.isPropertyAccessExpression(p) && p.name === n) ||
        (ts.isPropertyAssignment(p) && p.name === n) ||
        ((ts.isVariableDeclaration(p) ||
          ts.isParameter(p) ||
          ts.isBindingElement(p) ||
          ts.isMethodDeclaration(p) ||
          ts.isFunctionDeclaration(p)) &&
          p.name === n);
      const at = declaredAt.get(n.text);
      if (!isName && at !== undefined && n.getStart() < at)
        bad.add(`${n.text} (line ${file.getLineAndCharacterOfPosition(n.getStart()).line + 1})`);
    }
    n.forEachChild(visit);
  };
  body.forEachChild(visit);
  return [...bad];
}

describe('createApp', () => {
  it('uses no part before the line that declares it', () => {
    expect(usesBeforeDeclaration(readFileSync(join(ROOT, 'src-main/core/app.ts'), 'utf8'), 'createApp')).toEqual([]);
  });

  it('the check finds a closure that reaches a later declaration', () => {
    const src = 'function f() {\n  const a = { go: () => b.run() };\n  const b = { run: () => 1 };\n  return a;\n}\n';
    expect(usesBeforeDeclaration(src, 'f')).toEqual(['b (line 2)']);
    expect(usesBeforeDeclaration('function f() {\n  const b = 1;\n  const a = () => b;\n}\n', 'f')).toEqual([]);
  });
});
