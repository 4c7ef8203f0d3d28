// The official MCP conformance suite (server scenarios, --suite all), against our fixture upstream
// directly (the reference) and through a real `mws serve` in front of it. Failures must match
// test/conformance/expected-failures.yml, which may only shrink.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT, spawnTs, waitForOutput, type Running } from '../helpers/processes.js';
import { tempDir } from '../helpers/app.js';

const RUNNER = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/dist/index.js');
const BASELINE = join(ROOT, 'test', 'conformance', 'expected-failures.yml');
/** Every tool the scenarios call, pinned so the working set lists them (tools-list checks the list). */
const FIXTURE_TOOLS = [
  'test_simple_text',
  'test_image_content',
  'test_audio_content',
  'test_embedded_resource',
  'test_multiple_content_types',
  'test_tool_with_logging',
  'test_tool_with_progress',
  'test_error_handling',
  'test_reconnection',
  'test_sampling',
  'test_elicitation',
  'test_elicitation_sep1034_defaults',
  'test_elicitation_sep1330_enums',
  'json_schema_2020_12_tool',
];

const running: Running[] = [];
let fixtureUrl = '';
let proxyUrl = '';

beforeAll(async () => {
  const fixture = spawnTs(join(ROOT, 'test', 'fixtures', 'conformance', 'server.ts'));
  running.push(fixture);
  const port = Number((await waitForOutput(fixture, /PORT=(\d+)/, 'the conformance fixture'))[1]);
  fixtureUrl = `http://127.0.0.1:${port}/mcp`;
  const dir = tempDir();
  const config = join(dir, 'config.json');
  // The single unprefixed `upstream`: the scenarios call the fixture's tools and prompts by their own names.
  writeFileSync(
    config,
    JSON.stringify({
      upstream: { url: fixtureUrl },
      stateDir: join(dir, 'state'),
      listen: { host: '127.0.0.1', port: 0 },
      pins: FIXTURE_TOOLS,
      agents: [{ id: 'default', approvals: 'allow', cap: 40 }],
    }),
  );
  const mws = spawnTs(join(ROOT, 'src-main', 'cli', 'run.ts'), ['serve', '--config', config]);
  running.push(mws);
  proxyUrl = (await waitForOutput(mws, /listening on (http:\/\/\S+\/mcp)/, 'mws serve'))[1]!;
}, 60_000);
afterAll(async () => {
  await Promise.all(running.map((r) => r.kill()));
});

/** Runs the suite; resolves with the exit code and the summary the runner printed. */
function conformance(url: string): Promise<{ code: number | null; summary: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [RUNNER, 'server', '--url', url, '--suite', 'all', '--expected-failures', BASELINE, '-o', tempDir('mws-conformance-')],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, summary: out.slice(out.indexOf('=== SUMMARY ===')).replace(/^✓ .*0 failed\n/gm, '') }));
  });
}

describe('conformance server scenarios (--suite all)', () => {
  it('pass against the fixture directly (the reference)', async () => {
    const r = await conformance(fixtureUrl);
    expect(r.code, r.summary).toBe(0);
    expect(r.summary).toMatch(/Total: \d+ passed, 0 failed/);
  }, 180_000);

  it('pass through mws serve as they do directly', async () => {
    const r = await conformance(proxyUrl);
    expect(r.code, r.summary).toBe(0);
    expect(r.summary).toMatch(/Total: \d+ passed, 0 failed/);
  }, 180_000);
});
