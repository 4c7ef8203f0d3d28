// Which replica leads the fleet's working-set cycle. Leading is holding a session-level advisory lock
// on one connection of its own: when this process dies its connection closes, the lock is free, and
// the next replica to ask takes it.
import pg from 'pg';

/** The advisory lock whose holder leads the fleet's working-set cycle (migrations use another). */
export const LEADER_LOCK_KEY = 73_460_113;

export class Leadership {
  private client: pg.Client | undefined;
  private leading = false;
  private asking: Promise<boolean> | undefined;

  constructor(private readonly config: pg.ClientConfig) {}

  /** Whether this replica leads now (asked once at a time; a lost connection is a lost lead). */
  ask(): Promise<boolean> {
    return (this.asking ??= this.askOnce().finally(() => (this.asking = undefined)));
  }

  drop(): void {
    this.leading = false;
    const c = this.client;
    this.client = undefined;
    c?.end().catch(() => {});
  }

  private async askOnce(): Promise<boolean> {
    try {
      if (!this.client) {
        const c = new pg.Client(this.config);
        c.on('error', () => this.drop());
        c.on('end', () => {
          if (this.client === c) this.drop();
        });
        await c.connect();
        this.client = c;
      }
      if (this.leading) {
        // Still connected is still holding it.
        await this.client.query('SELECT 1');
        return true;
      }
      const r = await this.client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1) AS got', [LEADER_LOCK_KEY]);
      this.leading = r.rows[0]?.got === true;
      return this.leading;
    } catch {
      this.drop();
      return false;
    }
  }
}
