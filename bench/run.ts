// `npm run bench [name…]`: runs the benchmarks (all by default). Benchmarks are not tests: they print
// figures measured side by side in one run, never pass/fail a test suite.
const all = ['search', 'callOverhead', 'scale', 'soak', 'replicas'] as const;
const wanted = process.argv.slice(2).length ? process.argv.slice(2) : [...all];
for (const name of wanted) {
  if (!(all as readonly string[]).includes(name)) {
    console.error(`Unknown benchmark "${name}". Known: ${all.join(', ')}.`);
    process.exit(2);
  }
  const { spawnSync } = await import('node:child_process');
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', new URL(`./${name}.ts`, import.meta.url).pathname], {
    stdio: 'inherit',
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
