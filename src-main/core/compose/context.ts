// What every builder of the app shares: the config in force, time, the log, events, the agents'
// endpoints and the late-bound change hooks. The config is replaced whole by reconfigure, never
// changed in place: a part reads `ctx.config` (or is handed the new one) and sees one config at a time.
import type { Config } from '../config/schema.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { CoreEvents } from '../control/events.js';
import type { InstanceState } from '../control/parts.js';
import type { AgentEndpoint } from '../proxy/endpoint.js';

export class AppContext {
  private current: Config;
  readonly endpoints = new Map<string, AgentEndpoint>();
  /** Where the listener is (the configured address until it has opened). */
  baseUrl: string;
  readonly runtime: InstanceState;
  /**
   * The catalog and the working sets tell of changes that the router and search, built after them
   * (they read the catalog and the sets), act on: joined once both sides exist.
   */
  readonly toolboxChanged: Array<() => void> = [];
  readonly setsChanged: Array<(agents: string[]) => void> = [];

  constructor(
    config: Config,
    readonly clock: Clock,
    readonly log: Logger,
    readonly events: CoreEvents,
    demo: boolean,
  ) {
    this.current = config;
    this.baseUrl = `http://${config.listen.host}:${config.listen.port}`;
    this.runtime = { proxyPaused: false, restartNeeded: false, demo: demo ? { stateDir: config.stateDir } : null };
  }

  /** The config in force. */
  get config(): Config {
    return this.current;
  }

  /** Only the app's reconfigure calls this; it then tells the parts that keep their own copy. */
  replaceConfig(next: Config): void {
    this.current = next;
  }

  now = (): number => this.clock.now();
}
