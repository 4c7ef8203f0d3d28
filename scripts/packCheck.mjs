#!/usr/bin/env node
// Checks the package `npm pack` makes, the way a user gets it: the tarball is unpacked into an empty
// folder's node_modules beside its production dependencies only (installed offline from the npm cache
// with this repository's lockfile: `npm ci --omit=dev --offline`), then `npx mws --help` and
// `npx mws serve --demo` must work there. Offline and bounded in time: every step has a deadline.
// Needs a build first (`npm run build`); prints one line per step and exits 1 with a sentence on failure.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STEP_MS = 120_000;
const LISTEN_MS = 30_000;
const keep = process.argv.includes('--keep');

function fail(sentence) {
  process.stderr.write(`pack check: ${sentence}\n`);
  process.exit(1);
}

function run(cmd, args, cwd, what) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: STEP_MS, env: { ...process.env, npm_config_update_notifier: 'false' } });
  if (r.error) fail(`${what} could not run: ${r.error.message}`);
  return r;
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
if (!existsSync(join(ROOT, 'out/main/mws.cjs'))) fail('out/main/mws.cjs is missing; run npm run build first.');

const work = mkdtempSync(join(tmpdir(), 'mws-pack-'));
try {
  // 1. The tarball (the build is already done, so the prepack build is skipped).
  const packed = run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], ROOT, 'npm pack');
  if (packed.status !== 0) fail(`npm pack failed: ${packed.stderr}`);
  const info = JSON.parse(packed.stdout)[0];
  const files = info.files.map((f) => f.path);
  for (const need of [
    'bin/mws.js',
    'out/main/launch.mjs',
    'out/main/mws.cjs',
    'out/main/index.js',
    'out/renderer/index.html',
    'config.schema.json',
    'package.json',
  ]) {
    if (!files.includes(need)) fail(`the package lacks ${need}.`);
  }
  const stray = files.filter((f) => /^(src-main|src-renderer|test|bench|scripts)\//.test(f) || f.endsWith('.ts'));
  if (stray.length) fail(`the package ships sources it does not need: ${stray.slice(0, 5).join(', ')}.`);
  console.log(`pack check: ${info.filename}: ${files.length} files, ${Math.round(info.size / 1024)} kB packed`);

  // 2. Every package the built JavaScript imports is a production dependency (tsx, esbuild, electron
  //    and the rest of the development tools are not installed for a user).
  const deps = new Set(Object.keys(pkg.dependencies ?? {}));
  const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
  const missing = new Set();
  for (const f of files.filter((p) => /^(bin|out\/main)\/.*\.[cm]?js$/.test(p))) {
    const text = readFileSync(join(ROOT, f), 'utf8');
    // The CommonJS bundle loads packages only through esbuild's `require("…")` (an `import … from` in it is a library's comment).
    const loads = f.endsWith('.cjs')
      ? /\brequire\("([^"./][^"]*)"\)/g
      : /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"'./][^"']*)["']/g;
    for (const m of text.matchAll(loads)) {
      const spec = m[1];
      if (builtins.has(spec) || builtins.has(spec.split('/')[0])) continue;
      const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
      // The desktop entry runs inside Electron, which provides `electron` itself.
      if (name === 'electron' && f === 'out/main/index.js') continue;
      if (!deps.has(name)) missing.add(`${name} (imported by ${f})`);
    }
  }
  if (missing.size) fail(`built files import packages that are not production dependencies: ${[...missing].join(', ')}.`);

  // 3. An empty folder with the production dependencies only, installed offline from the npm cache.
  const app = join(work, 'app');
  mkdirSync(app);
  cpSync(join(ROOT, 'package.json'), join(app, 'package.json'));
  cpSync(join(ROOT, 'package-lock.json'), join(app, 'package-lock.json'));
  const ci = run('npm', ['ci', '--omit=dev', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], app, 'npm ci');
  if (ci.status !== 0)
    fail(
      `npm ci --omit=dev --offline failed (is the npm cache filled? run npm ci once): ${ci.stderr.trim().split('\n').slice(-3).join(' ')}`,
    );
  for (const dev of ['tsx', 'esbuild', 'electron', 'vite', 'typescript']) {
    if (existsSync(join(app, 'node_modules', dev))) fail(`${dev} is installed for users; it must be a development dependency only.`);
  }
  // Then the package itself, unpacked where npm would put it, with its bin linked.
  const unpack = join(work, 'unpack');
  mkdirSync(unpack);
  const tar = run('tar', ['-xzf', join(work, info.filename), '-C', unpack], work, 'tar');
  if (tar.status !== 0) fail(`the tarball did not unpack: ${tar.stderr}`);
  const installed = join(app, 'node_modules', pkg.name);
  cpSync(join(unpack, 'package'), installed, { recursive: true });
  mkdirSync(join(app, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(join('..', pkg.name, 'bin', 'mws.js'), join(app, 'node_modules', '.bin', 'mws'));
  rmSync(join(app, 'package-lock.json'));
  writeFileSync(join(app, 'package.json'), JSON.stringify({ private: true, dependencies: { [pkg.name]: pkg.version } }));
  console.log(
    `pack check: installed offline with ${readdirSync(join(app, 'node_modules')).filter((n) => !n.startsWith('.')).length} production packages`,
  );

  // 3b. The sentence model and its runtime, as installed (onnxruntime-node's install script never ran):
  //     every file matches model.json's sha256, and one run gives per-token vectors.
  const modelRoot = join(installed, 'resources', 'model');
  const models = existsSync(modelRoot) ? readdirSync(modelRoot) : [];
  if (!models.length) fail('the package lacks resources/model (the search model).');
  const probe = [
    "import { createHash } from 'node:crypto'; import { readFileSync } from 'node:fs'; import { join } from 'node:path';",
    `const dir = ${JSON.stringify(join(modelRoot, models[0]))};`,
    "const m = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8'));",
    "for (const [f, sha] of Object.entries(m.files)) if (createHash('sha256').update(readFileSync(join(dir, f))).digest('hex') !== sha) throw new Error(f + ' differs from model.json');",
    "const ort = await import('onnxruntime-node');",
    "const s = await ort.InferenceSession.create(join(dir, 'model.onnx'), { intraOpNumThreads: 1 });",
    "const t = (a) => new ort.Tensor('int64', BigInt64Array.from(a.map(BigInt)), [1, a.length]);",
    'const out = (await s.run({ input_ids: t([101, 7592, 102]), attention_mask: t([1, 1, 1]) }))[m.output];',
    "if (out.dims.join() !== [1, 3, m.dim].join()) throw new Error('output ' + out.dims.join('x'));",
  ].join('\n');
  const loaded = run(process.execPath, ['--input-type=module', '-e', probe], app, 'the model probe');
  if (loaded.status !== 0)
    fail(`the search model did not load in the installed package: ${loaded.stderr.trim().split('\n').slice(-3).join(' ')}`);
  console.log(`pack check: search model ${models[0]} loads with onnxruntime-node as installed`);

  // 4. `npx mws --help`.
  const env = {
    ...process.env,
    HOME: work,
    XDG_CONFIG_HOME: join(work, 'config'),
    XDG_STATE_HOME: join(work, 'state'),
    MWS_CONFIG: join(work, 'config.json'),
  };
  const started = Date.now();
  const help = spawnSync('npx', ['--offline', '--no-install', 'mws', '--help'], { cwd: app, env, encoding: 'utf8', timeout: STEP_MS });
  if (help.status !== 0 || !help.stdout.includes('Usage: mws')) fail(`npx mws --help failed (exit ${help.status}): ${help.stderr}`);
  console.log(`pack check: npx mws --help: ok in ${Date.now() - started} ms`);

  // 5. `npx mws serve --demo` until it says where it listens, then a tools/list through it.
  await new Promise((resolve) => {
    const t0 = Date.now();
    const proc = spawn('npx', ['--offline', '--no-install', 'mws', 'serve', '--demo', '--port', '0'], {
      cwd: app,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    let err = '';
    // Waits for the processes to end (killed outright after a deadline): `mws` writes its state and the
    // CLI's code cache as it stops, and the folder is removed after this.
    const stop = (sentence) => {
      clearTimeout(timer);
      const hard = setTimeout(() => signal('SIGKILL'), LISTEN_MS);
      // npx may end before the `mws` it started: the whole process group has to be gone.
      const ended = () => {
        if (signal(0)) return void setTimeout(ended, 50);
        clearTimeout(hard);
        if (sentence) fail(sentence);
        resolve();
      };
      signal('SIGTERM');
      ended();
    };
    /** Sends `name` to the process group; false once no process of it is left. */
    const signal = (name) => {
      try {
        process.kill(-proc.pid, name);
        return true;
      } catch {
        return false;
      }
    };
    const timer = setTimeout(() => stop(`npx mws serve --demo printed no address within ${LISTEN_MS} ms: ${out} ${err}`), LISTEN_MS);
    proc.stderr.on('data', (d) => (err += d));
    proc.on('exit', (code) => stop(`npx mws serve --demo exited with ${code}: ${err}`));
    proc.stdout.on('data', async (d) => {
      out += d;
      const m = out.match(/listening on (http:\/\/\S+\/mcp)/);
      if (!m) return;
      proc.stdout.removeAllListeners('data');
      const ms = Date.now() - t0;
      try {
        const res = await fetch(m[1], {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-06-18',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pack-check', version: '1' } },
          }),
          signal: AbortSignal.timeout(10_000),
        });
        if (res.status !== 200) return stop(`npx mws serve --demo answered initialize with HTTP ${res.status}: ${await res.text()}`);
        await res.body?.cancel();
        // The window's files ship in the package: the one-time link leads to the built page.
        const link = /one-time link\): (http:\/\/\S+)/.exec(out)?.[1];
        if (!link) return stop(`npx mws serve --demo printed no window link: ${out}`);
        const login = await fetch(link, { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
        const cookie = login.headers.get('set-cookie')?.split(';')[0];
        const page = await fetch(new URL('/ui/', link), { headers: cookie ? { cookie } : {}, signal: AbortSignal.timeout(10_000) });
        const html = await page.text();
        if (page.status !== 200 || !/<html/i.test(html))
          return stop(`the window's page did not load from the package (HTTP ${page.status}).`);
      } catch (e) {
        return stop(`npx mws serve --demo did not answer initialize: ${e.message}`);
      }
      proc.removeAllListeners('exit');
      console.log(`pack check: npx mws serve --demo: listening after ${ms} ms and answering, window page served`);
      stop();
    });
  });
  console.log('pack check: ok');
} finally {
  if (keep) console.log(`pack check: kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
