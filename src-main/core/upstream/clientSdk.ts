// The MCP SDK's client module, loaded when the first upstream starts rather than when the process
// starts: evaluating it (its own copy of the protocol code, eventsource, cross-spawn) adds to
// the time before `mws serve` listens, and nothing before the listener needs it.
export type ClientSdk = typeof import('@modelcontextprotocol/client');

let loading: Promise<ClientSdk> | undefined;
let loaded: ClientSdk | undefined;

export function clientSdk(): Promise<ClientSdk> {
  return (loading ??= import('@modelcontextprotocol/client').then((m) => (loaded = m)));
}

/** The module once `clientSdk()` has resolved; undefined before (then no SDK client or error exists yet). */
export function loadedClientSdk(): ClientSdk | undefined {
  return loaded;
}
