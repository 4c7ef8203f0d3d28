// The connection of one upstream, with the options every connection shares: the client's name, the
// timeouts and bounds of the config, where values are read and, for a configured HTTP upstream, its
// OAuth and its log view.
import type { Config } from '../config/schema.js';
import type { Logger } from '../log.js';
import type { ResolveParts } from '../secrets/refs.js';
import { UpstreamConnection, type ConnectionOptions } from './connection.js';
import type { UpstreamJournal } from './journal.js';
import type { OAuthUpstreams } from './oauth/manager.js';

export type ConnectionDeps = {
  config: Config;
  log: Logger;
  now: () => number;
  values?: ResolveParts | undefined;
  oauth?: OAuthUpstreams | undefined;
};
export type ConnectionHooks = Pick<ConnectionOptions, 'onToolsChanged' | 'onUp' | 'onNotification' | 'onDown'>;

/**
 * A connection to `config`. With a `journal` it is a configured upstream's: it signs in with OAuth
 * (HTTP) and keeps a log view; without, a one-off (a test of an upstream not saved yet).
 */
export function connectionFor(
  vendor: string,
  config: Config['upstreams'][string],
  deps: ConnectionDeps,
  hooks: ConnectionHooks,
  journal?: UpstreamJournal,
): UpstreamConnection {
  const auth = journal && config.kind === 'http' ? deps.oauth?.for(vendor, config) : undefined;
  return new UpstreamConnection({
    vendor,
    config,
    log: deps.log,
    clientName: 'mcp-working-set',
    now: deps.now,
    connectMs: deps.config.timeouts.connectMs,
    maxResultBytes: deps.config.maxResultBytes,
    ...hooks,
    ...(journal ? { journal } : {}),
    ...(auth ? { auth } : {}),
    ...(deps.values ? { values: deps.values } : {}),
  });
}
