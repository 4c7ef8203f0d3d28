// "Test this upstream" in the window and the CLI: connects to an upstream that is not (yet)
// configured, lists it once and disconnects, and says in a sentence why it did not list.
import type { Config } from '../config/schema.js';
import { connectionFor, type ConnectionDeps } from './connectionFor.js';
import { signsInWithOAuth } from './oauth/detect.js';

/** The longest a test waits for the upstream to start: someone is looking at "Testing…". */
const PROBE_MAX_MS = 30_000;

export type ProbeResult = { ok: boolean; era: string | undefined; tools: string[]; error: string | undefined };

export async function probeUpstream(vendor: string, config: Config['upstreams'][string], deps: ConnectionDeps): Promise<ProbeResult> {
  const t = deps.config.timeouts;
  const c = connectionFor(vendor, config, deps, { onToolsChanged: () => {}, onUp: () => {} });
  try {
    // A slow start is waited for, not only the list budget (a slow server is still a good one).
    const tools = await c.listTools(Math.min(t.connectMs, Math.max(t.listMs, PROBE_MAX_MS)));
    return { ok: true, era: c.info().era, tools: tools.map((t) => t.name), error: undefined };
  } catch (err) {
    const message = (err as Error).message;
    // A 401 to no credential from a server that signs in with OAuth is not a wrong credential: it wants a sign-in.
    const gaveToken =
      config.kind === 'http' &&
      (config.bearerTokenEnvVar !== undefined || Object.keys(config.headers).some((h) => h.toLowerCase() === 'authorization'));
    if (config.kind === 'http' && !gaveToken && /\b401\b|unauthori[sz]ed/i.test(message) && (await signsInWithOAuth(config.url)))
      return {
        ok: false,
        era: undefined,
        tools: [],
        error: `This server signs in with OAuth. Save it, then click Sign in on the Upstreams screen (or run \`mws login ${vendor === 'test' ? '<name>' : vendor}\`); its tools come once you are signed in.`,
      };
    return { ok: false, era: undefined, tools: [], error: c.maskSecrets(message) };
  } finally {
    await c.close();
  }
}
