// Changes other replicas made, heard through PostgreSQL's LISTEN/NOTIFY on one dedicated connection.
// A write sends its notification in the same statement, so one is heard only once the change is
// committed. When the connection drops it is opened again; what was missed meanwhile is told as a resync.
import pg from 'pg';
import { errorMessage } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { StoreChange } from '../port.js';

export const CHANNEL = 'mws_state';
/** Waits between attempts to get the listening connection back, growing to the last. */
const RECONNECT_MS = [250, 500, 1000, 2000, 5000];

export type Notice = StoreChange & { origin: string };

export class ChangeListener {
  private client: pg.Client | undefined;
  private stopped = false;
  private attempt = 0;
  private timer: NodeJS.Timeout | undefined;
  private everConnected = false;

  constructor(
    private readonly o: {
      config: pg.ClientConfig;
      origin: string;
      onChange: (c: StoreChange) => void;
      log: Logger;
    },
  ) {}

  /** Resolves once listening (or rejects with why the first connection failed; it goes on trying). */
  start(): Promise<void> {
    return this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client(this.o.config);
    this.client = client;
    let dropped = false;
    const drop = (why: string) => {
      if (dropped) return;
      dropped = true;
      if (this.client === client) this.client = undefined;
      client.end().catch(() => {});
      if (this.stopped) return;
      if (this.attempt === 0) this.o.log.warn(`lost the state database's change feed (${why}); reconnecting.`);
      const wait = RECONNECT_MS[Math.min(this.attempt++, RECONNECT_MS.length - 1)]!;
      this.timer = setTimeout(() => void this.connect().catch(() => {}), wait);
      this.timer.unref();
    };
    client.on('error', (err) => drop(errorMessage(err)));
    client.on('end', () => drop('the connection ended'));
    client.on('notification', (n) => {
      if (n.channel !== CHANNEL || !n.payload) return;
      let notice: Notice;
      try {
        notice = JSON.parse(n.payload) as Notice;
      } catch {
        return;
      }
      if (notice.origin === this.o.origin) return;
      const { origin: _origin, ...change } = notice;
      this.o.onChange(change as StoreChange);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (err) {
      drop(errorMessage(err));
      throw err;
    }
    if (this.everConnected) this.o.onChange({ kind: 'resync' });
    this.everConnected = true;
    this.attempt = 0;
  }

  get listening(): boolean {
    return this.client !== undefined;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.client?.end().catch(() => {});
  }
}
