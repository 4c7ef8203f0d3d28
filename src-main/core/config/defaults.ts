// The text `mws init` writes. Every default of the config itself is declared with its field, in
// configSchema.ts.
import { DEFAULT_AGENT_ID, DEFAULT_CAP, DEFAULT_IDLE_WINDOW_DAYS, DEFAULT_PORT } from './configSchema.js';
import { CONFIG_VERSION } from './migrate.js';

/** The sample upstream `mws init` writes; import replaces it, untouched, by a real server of its name. */
export const SAMPLE_UPSTREAMS: Readonly<Record<string, { command: string; args: string[] }>> = {
  everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] },
};

/**
 * What `mws init` writes: a small, commented-by-example starting point. `schemaUrl` (config.schema.json)
 * goes in `$schema`, so an editor completes and checks the file.
 */
export function initialConfigText(schemaUrl?: string): string {
  const sample = {
    ...(schemaUrl ? { $schema: schemaUrl } : {}),
    version: CONFIG_VERSION,
    upstreams: structuredClone(SAMPLE_UPSTREAMS),
    listen: { host: '127.0.0.1', port: DEFAULT_PORT },
    serverName: 'toolbox',
    pins: [],
    agents: [{ id: DEFAULT_AGENT_ID, cap: DEFAULT_CAP, idleWindowDays: DEFAULT_IDLE_WINDOW_DAYS }],
  };
  return JSON.stringify(sample, null, 2) + '\n';
}
