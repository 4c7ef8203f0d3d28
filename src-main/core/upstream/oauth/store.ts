// Where OAuth state of each upstream is kept between runs: tokens, the client registration and the
// PKCE verifier of a sign-in under way. Behind one small interface so the desktop can keep it in the
// OS keychain (the secret store) and headless runs in one 0600 file of the state folder.
import { join } from 'node:path';
import type { Logger } from '../../log.js';
import { readJsonSafe, writeJsonAtomic } from '../../store/atomicJson.js';
import { SerialQueue } from '../../serial.js';

/** Tokens as the authorization server gave them, with when they expire by our clock (ms epoch). */
export type SavedTokens = {
  access_token: string;
  token_type: string;
  refresh_token?: string;
  scope?: string;
  expires_in?: number;
  id_token?: string;
  issuer?: string;
  /** Our clock's time when the access token stops being good; absent when the server did not say. */
  expiresAt?: number;
};

/** What is kept for one upstream. `serverUrl` ties it to the URL it was obtained for. */
export type OAuthRecord = {
  serverUrl: string;
  tokens?: SavedTokens;
  /** The client registration (dynamic, or a CIMD client ID), and the redirect URI it was made for. */
  client?: { info: Record<string, unknown>; redirectUri: string };
  /** The PKCE verifier of the sign-in under way (only one per upstream at a time). */
  verifier?: string;
  /** Who signed in, when the server said (an id_token's name/email, or the token's `sub`). */
  account?: string;
};

export interface OAuthStore {
  get(vendor: string): Promise<OAuthRecord | undefined>;
  set(vendor: string, value: OAuthRecord): Promise<void>;
  delete(vendor: string): Promise<void>;
  /**
   * Runs `fn` while no other process sharing this store runs one for the same upstream: a refresh
   * token that the server rotates may be spent once only. Stores one process owns have none.
   */
  exclusive?<T>(vendor: string, fn: () => Promise<T>): Promise<T>;
}

export const OAUTH_FILE = 'oauth.json';

type FileShape = { upstreams: Record<string, OAuthRecord> };
const isFile = (v: unknown): v is FileShape =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as { upstreams?: unknown }).upstreams === 'object' &&
  (v as { upstreams?: unknown }).upstreams !== null;

/**
 * The headless store: `<stateDir>/oauth.json`, mode 0600, written atomically, one write at a time. A
 * change is seen by readers only once it is on disk (fsync'd): a sign-in server that rotates refresh
 * tokens has forgotten the old one, so a new token used before it is durable is lost at a kill -9.
 */
export class FileOAuthStore implements OAuthStore {
  private readonly path: string;
  /** What is on disk, as the last write that completed left it. */
  private data: Promise<FileShape> | undefined;
  private readonly writing = new SerialQueue();

  constructor(
    stateDir: string,
    private readonly log: Logger,
    private readonly write: (path: string, value: FileShape, mode: number) => Promise<void> = writeJsonAtomic,
  ) {
    this.path = join(stateDir, OAUTH_FILE);
  }

  private load(): Promise<FileShape> {
    return (this.data ??= readJsonSafe(this.path, this.log, isFile).then((r) => (r.kind === 'ok' ? r.value : { upstreams: {} })));
  }

  async get(vendor: string): Promise<OAuthRecord | undefined> {
    // A write under way is waited for: what it holds is not handed out before it is durable.
    await this.writing.idle();
    const d = await this.load();
    return Object.hasOwn(d.upstreams, vendor) ? structuredClone(d.upstreams[vendor]) : undefined;
  }

  set(vendor: string, value: OAuthRecord): Promise<void> {
    return this.change((ups) => void (ups[vendor] = structuredClone(value)));
  }

  delete(vendor: string): Promise<void> {
    return this.change((ups) => (Object.hasOwn(ups, vendor) ? void delete ups[vendor] : false));
  }

  /**
   * Applies `edit` to a copy of what is on disk, writes it, and only then makes it what readers see.
   * A failed write (full disk) fails its own caller and leaves readers with what the disk holds.
   */
  private change(edit: (ups: Record<string, OAuthRecord>) => void | false): Promise<void> {
    return this.writing.run(async () => {
      const next = structuredClone(await this.load());
      if (edit(next.upstreams) === false) return;
      await this.write(this.path, next, 0o600);
      this.data = Promise.resolve(next);
    });
  }
}

/** An in-memory store, for tests that need no state folder. */
export class MemoryOAuthStore implements OAuthStore {
  private readonly m = new Map<string, OAuthRecord>();
  async get(vendor: string): Promise<OAuthRecord | undefined> {
    const v = this.m.get(vendor);
    return v && structuredClone(v);
  }
  async set(vendor: string, value: OAuthRecord): Promise<void> {
    this.m.set(vendor, structuredClone(value));
  }
  async delete(vendor: string): Promise<void> {
    this.m.delete(vendor);
  }
}
