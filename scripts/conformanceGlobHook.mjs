// Module-loader hook for scripts/conformance-runner.mjs: in the runner's bundle only, `globSync`
// comes from tinyglobby instead of "fs" (Node 20's fs has none).
let runner = '';
let glob = '';
export function initialize(data) {
  runner = data.runner;
  glob = data.glob;
}

export async function load(url, context, next) {
  const r = await next(url, context);
  if (url !== runner) return r;
  const source = String(r.source).replace(
    /import\{([^}]*?)globSync as (\w+),?([^}]*)\}from"fs";/,
    (_m, before, alias, after) => `import{${before}${after}}from"fs";import{globSync as ${alias}}from"${glob}";`,
  );
  return { ...r, source, shortCircuit: true };
}
