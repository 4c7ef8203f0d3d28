// The state port: everything a Working Set keeps between runs that replicas must share goes through
// one StateStore. Two adapters: files in the state folder (files.ts, today's layout unchanged) and
// PostgreSQL (postgres/). Decisions stay in the core; only the adapters know files or SQL.
import type { SecretStore } from '../secrets/store.js';
import type { OAuthStore } from '../upstream/oauth/store.js';
import type { ActivityEntry } from '../usage/activityTypes.js';
import type { CallRecorder } from '../usage/callLog.js';
import type { AgentStateStore } from '../workingset/stateFiles.js';
import type { LearningFeed } from '../search/learningFeed.js';

export type Raw = Record<string, unknown>;

/** The config document as stored, and the version an edit must be made against. Absent: none stored yet. */
export type StoredConfig = { raw: Raw; version: string };

/**
 * The config document (upstreams, agents, settings). `write` succeeds only when the stored version is
 * still `expected` (null: nothing stored yet): otherwise MwsError `conflict`, and nothing is written.
 */
export interface ConfigDocumentStore {
  /** Where the document lives, for sentences ("the config file /x.json", "the database"). */
  readonly label: string;
  read(): Promise<StoredConfig | undefined>;
  write(raw: Raw, expected: string | null): Promise<string>;
}

export interface CallRecordStore extends CallRecorder {
  /** Every record (calls and searches) after a record id, oldest first: usage reads the fleet's log (shared stores only). */
  since?(afterId: number, limit: number): Promise<Array<{ id: number; record: Record<string, unknown> }>>;
  /** How long after it is written a record shows to `since` (shared stores only). */
  readonly settleMs?: number;
  /** The latest calls (not searches), newest first, of one agent or all; written records only (flush first). */
  recent(o?: { agent?: string; limit?: number }): Promise<ActivityEntry[]>;
}

/** A change made through the same store by another process (another replica): what to reload. */
/** `resync`: the line to the other processes was down a while; anything may have changed meanwhile. */
export type StoreChange =
  { kind: 'config'; version: string } | { kind: 'agent'; agent: string } | { kind: 'learning' } | { kind: 'resync' };

export interface StateStore {
  readonly kind: 'files' | 'postgres';
  readonly config: ConfigDocumentStore;
  readonly agents: AgentStateStore;
  readonly calls: CallRecordStore;
  /** What search learned, shared by the fleet (shared stores only; files keep learned.json). */
  readonly learning?: LearningFeed;
  readonly secrets: SecretStore;
  readonly oauth: OAuthStore;
  /** Changes other processes made; the files adapter has none to tell (one owner holds the folder's lock). */
  onChange(listener: (change: StoreChange) => void): () => void;
  /** The database's pool and query times, for metrics (the files adapter has none). */
  readonly stats?: {
    pool(): { total: number; idle: number; waiting: number };
    onQuery(listener: (seconds: number, ok: boolean) => void): () => void;
  };
  /**
   * Whether this process leads the fleet now: the one that runs the working-set cycle (usage promotion
   * and the sweep). Shared stores only; without it every process leads its own state.
   */
  readonly leader?: () => Promise<boolean>;
  /** Resolves when the store answers now; rejects with MwsError `unavailable` (for /readyz). */
  check(): Promise<void>;
  close(): Promise<void>;
}
