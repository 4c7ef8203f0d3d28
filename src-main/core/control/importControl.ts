// The import control methods. The import feature (and its JSONC and TOML parsers) loads when it is
// used, not with every start. Client entries point at the port of the config file (what is right
// after a restart, and what the CLI writes too), not at a --port given for this run; own entries are
// known at either port.
import { agentUrl } from '../config/agentUrl.js';
import type { ControlHandlers } from './contract.js';
import type { ControlLookups, ControlParts } from './parts.js';

type Methods = Pick<ControlHandlers, 'importScan' | 'importServers'>;

export function importControl(p: ControlParts, l: ControlLookups): Methods {
  return {
    async importScan(a) {
      return (await import('../import/service.js')).scanImports(
        a,
        {},
        {
          self: { serverName: p.config.serverName, ports: l.importPorts() },
          upstreams: (p.editor.current().upstreams ?? {}) as Record<string, unknown>,
        },
      );
    },
    async importServers(a) {
      return (await import('../import/service.js')).applyImport(a, {
        get config() {
          return p.config;
        },
        editor: p.editor,
        configPath: p.configPath,
        // The running instance's URL: the one the client can reach now (started with --port, it is not the file's).
        agentUrl: (id) => agentUrl(new URL(p.baseUrl()).origin, l.agentId(id)),
        now: () => p.clock.now(),
        ports: l.importPorts(),
        secrets: l.secrets,
      });
    },
  };
}
