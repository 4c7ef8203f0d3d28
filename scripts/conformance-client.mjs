#!/usr/bin/env node
// The conformance suite's client under test: Working Set as the client of the scenario's server.
//   conformance client --command "node scripts/conformance-client.mjs" --scenario X
// The runner appends the server URL and sets MCP_CONFORMANCE_SCENARIO (and MCP_CONFORMANCE_CONTEXT,
// e.g. pre-registered client credentials). This starts a real `mws serve` whose only upstream is that
// URL, signs in where the server asks (following the authorization redirect as a browser would and
// landing on the real /oauth/callback), then drives the scenario through the proxy with an MCP client:
// list tools, call the scenario's tool. Set MWS_CLI to a built CLI entry (else src-main/cli/run.ts via tsx).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const serverUrl = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
/** Every wait here has a deadline (the runner's own timeout is 30 s per scenario). */
const WAIT_MS = 20_000;
/** Sign-ins one scenario may take: the first, and step-ups (the suite checks a client stops by 3). */
const MAX_SIGN_INS = 3;
/** The client ID metadata document the suite expects a client to use where the server supports CIMD. */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';

/** The tool each scenario's server offers (auth scenarios: `test-tool`). */
const TOOL = {
  tools_call: ['add_numbers', { a: 2, b: 3 }],
  'sse-retry': ['test_reconnection', {}],
  'elicitation-sep1034-client-defaults': ['test_client_elicitation_defaults', {}],
};
const [toolName, toolArgs] = TOOL[scenario] ?? (scenario.startsWith('auth/') ? ['test-tool', {}] : [undefined, {}]);

const log = (...a) => console.error('[conformance-client]', ...a);

function oauthConfig() {
  const o = { clientMetadataUrl: CIMD_URL };
  if (context.client_id) o.clientId = context.client_id;
  if (context.client_secret) o.clientSecret = context.client_secret;
  return o;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'mws-conf-client-'));
  const config = join(dir, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({
      // The single unprefixed upstream: the scenario's tools keep their own names.
      upstream: { url: serverUrl, oauth: oauthConfig() },
      stateDir: join(dir, 'state'),
      listen: { host: '127.0.0.1', port: 0 },
      agents: [{ id: 'default', approvals: 'allow', pins: toolName ? [toolName] : [] }],
      timeouts: { listMs: 10_000, connectMs: 15_000 },
    }),
  );
  const cli = process.env.MWS_CLI;
  const args = cli ? [cli] : ['--import', 'tsx', join(ROOT, 'src-main', 'cli', 'run.ts')];
  const mws = spawn(process.execPath, [...args, 'serve', '--config', config], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  mws.stderr.on('data', (d) => process.stderr.write(d));
  try {
    const base = await listening(mws);
    const token = readFileSync(join(dir, 'state', 'control-token'), 'utf8').trim();
    const control = async (method, a = {}) => {
      const res = await fetch(`${base}/control/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(a),
      });
      const body = await res.json();
      if (!body.ok) throw new Error(`control ${method}: ${body.error?.message}`);
      return body.result;
    };
    let signIns = 0;
    /** Waits until the upstream settles; signs in (as a browser would) while it waits for that. */
    const settle = async () => {
      const end = Date.now() + WAIT_MS;
      for (;;) {
        const u = (await control('status')).upstreams[0];
        if (u?.status === 'up' || u?.status === 'down' || u?.status === 'revoked') return u.status;
        if (u?.status === 'needs-sign-in') {
          if (signIns >= MAX_SIGN_INS) return u.status;
          const r = await control('signIn', { vendor: u.vendor });
          if (r.status === 'waiting') {
            signIns++;
            await signInAsBrowser(r.url);
          }
        }
        if (Date.now() > end) throw new Error(`the upstream did not settle within ${WAIT_MS} ms (last: ${JSON.stringify(u)})`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    log('upstream is', await settle());

    const client = new Client(
      { name: 'conformance-through-mws', version: '1.0.0' },
      { capabilities: { elicitation: { form: { applyDefaults: true } } } },
    );
    // The SDK fills in the schema's defaults for omitted fields (SEP-1034) when applyDefaults is declared.
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: {} }));
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    const tools = (await client.listTools()).tools.map((t) => t.name);
    log('tools:', tools.join(', '));
    if (toolName) {
      // A call that needs another sign-in (a step-up to more scopes) is tried again after it, within MAX_SIGN_INS.
      for (;;) {
        const r = await client
          .callTool({ name: toolName, arguments: toolArgs })
          .catch((e) => ({ isError: true, content: [{ type: 'text', text: e.message }] }));
        const text = (r.content ?? []).map((c) => c.text ?? '').join(' ');
        log('call:', r.isError ? 'error' : 'ok', text.slice(0, 200));
        if (!(r.isError && /sign in/.test(text)) || signIns >= MAX_SIGN_INS) break;
        if ((await settle()) !== 'up') break;
      }
    }
    await client.close();
  } finally {
    mws.kill('SIGTERM');
    await new Promise((r) => (mws.exitCode !== null ? r() : mws.once('exit', r)));
    rmSync(dir, { recursive: true, force: true });
  }
}

function listening(child) {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`mws serve did not listen within ${WAIT_MS} ms: ${out}`)), WAIT_MS);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)\/mcp/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`mws serve exited with ${code}: ${out}`)));
  });
}

/** Opens the authorization URL and follows its redirect back to /oauth/callback as a top-level navigation. */
async function signInAsBrowser(url) {
  const res = await fetch(url, { redirect: 'manual' });
  const location = res.headers.get('location');
  if (!location) throw new Error(`the authorization server answered ${res.status} without a redirect`);
  const cb = new URL(location, url);
  const status = await new Promise((resolve, reject) => {
    const req = request(
      {
        host: cb.hostname,
        port: cb.port,
        path: cb.pathname + cb.search,
        method: 'GET',
        headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', accept: 'text/html' },
      },
      (r) => {
        r.resume();
        r.on('end', () => resolve(r.statusCode));
      },
    );
    req.setTimeout(WAIT_MS, () => req.destroy(new Error('no answer from /oauth/callback')));
    req.on('error', reject);
    req.end();
  });
  log('callback answered', status);
}

main().then(
  () => process.exit(0),
  (err) => {
    log(err?.stack ?? String(err));
    process.exit(1);
  },
);
