// Secret values kept outside config.json (docs/guide/secrets.md): the config names them by reference (`${secret:NAME}`, see
// refs.ts) and only the connection step reads them. One JSON file in the state folder, 0600, written
// atomically; in the desktop app each value is sealed by a Cipher (Electron safeStorage, injected).
import { chmod, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { MwsError } from '../errors.js';
import type { Logger } from '../log.js';
import { readJsonSafe, writeJsonAtomic } from '../store/atomicJson.js';
import { SerialQueue } from '../serial.js';

export const SECRETS_FILE = 'secrets.json';

/** Where secret values live. Every method answers names only, never values, except get(). */
export interface SecretStore {
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
  /** Answers whether there was a value. */
  delete(name: string): Promise<boolean>;
  /** The names held, sorted. */
  list(): Promise<string[]>;
}

/**
 * Seals values for the file (the desktop app's OS keychain through Electron safeStorage). `id` is
 * written in the file, so a store without that cipher knows it cannot read it.
 */
export interface SecretCipher {
  readonly id: string;
  encrypt(plain: string): Promise<string>;
  decrypt(sealed: string): Promise<string>;
}

type SecretsFile = { version: 1; cipher?: string; secrets: Record<string, string> };

function isSecretsFile(v: unknown): v is SecretsFile {
  if (typeof v !== 'object' || v === null) return false;
  const f = v as { version?: unknown; cipher?: unknown; secrets?: unknown };
  if (f.version !== 1 || (f.cipher !== undefined && typeof f.cipher !== 'string')) return false;
  const s = f.secrets;
  return typeof s === 'object' && s !== null && !Array.isArray(s) && Object.values(s).every((x) => typeof x === 'string');
}

/** A secret name: what follows `${secret:` — letters, digits and . _ - / : (upstreams.github.headers.Authorization). */
export const SECRET_NAME = /^[A-Za-z0-9._:/-]{1,200}$/;

function checkName(name: string): void {
  if (typeof name !== 'string' || !SECRET_NAME.test(name)) {
    throw new MwsError(
      'usage',
      `A secret's name must be 1 to 200 letters, digits or . _ - / : (got ${JSON.stringify(String(name)).slice(0, 60)}).`,
    );
  }
}

/**
 * The file store. Reads the file on each call (a CLI command and the app may take turns on the state
 * folder, and a hand deletion must be seen); writes run one at a time. A damaged file is moved aside
 * with a warning, as every state file is.
 */
export class FileSecretStore implements SecretStore {
  readonly path: string;
  private readonly queue = new SerialQueue();
  private warnedMode = false;

  constructor(
    stateDir: string,
    private readonly log: Logger,
    private readonly cipher?: SecretCipher,
  ) {
    this.path = join(stateDir, SECRETS_FILE);
  }

  /**
   * A file another user owns could have been read or planted by them: refused. One opened up to other
   * users (a careless chmod, a copy) is made 0600 again when read, not only at the next write — a
   * serving mws may read it for weeks without writing.
   */
  private async guard(): Promise<void> {
    const st = await stat(this.path).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? undefined : Promise.reject(err)));
    if (!st || process.platform === 'win32') return;
    const uid = process.getuid?.();
    if (uid !== undefined && uid !== 0 && st.uid !== uid) {
      throw new MwsError(
        'secrets_locked',
        `${this.path} belongs to another user (uid ${st.uid}), who may have read or written it; remove it (or chown it to yourself after checking it), then set the values again with \`mws upstream set\`.`,
        { path: this.path },
      );
    }
    if (st.mode & 0o077) {
      // Said once: on a file system without modes (a FAT stick) chmod changes nothing, and every read would say it again.
      const say = !this.warnedMode;
      this.warnedMode = true;
      try {
        await chmod(this.path, 0o600);
        if (say)
          this.log.warn(
            `${this.path} could be read by other users of this machine (mode ${(st.mode & 0o777).toString(8)}); it is 0600 again. Its secrets may have been read: consider renewing them.`,
          );
      } catch (err) {
        if (say)
          this.log.warn(
            `${this.path} can be read by other users of this machine and could not be made 0600 (${(err as NodeJS.ErrnoException).code ?? String(err)}); run chmod 600 on it.`,
          );
      }
    }
  }

  private async read(): Promise<SecretsFile> {
    await this.guard();
    const r = await readJsonSafe(this.path, this.log, isSecretsFile);
    if (r.kind !== 'ok') return { version: 1, ...(this.cipher ? { cipher: this.cipher.id } : {}), secrets: {} };
    const file = r.value;
    if (file.cipher !== undefined && file.cipher !== this.cipher?.id) {
      throw new MwsError(
        'secrets_locked',
        file.cipher === 'electron-safe-storage'
          ? `The secrets in ${this.path} are sealed with the OS keychain by the Working Set app; start the app (the CLI then talks to it), or set the values again with \`mws upstream set\`.`
          : `The secrets in ${this.path} are sealed by "${file.cipher}", which this process cannot open.`,
        { path: this.path },
      );
    }
    if (file.cipher === undefined && this.cipher && Object.keys(file.secrets).length) {
      // Written headless before the app ran: sealed at the next write; read as they are meanwhile.
      return { version: 1, secrets: file.secrets };
    }
    return file;
  }

  private async open(file: SecretsFile, sealed: string): Promise<string> {
    if (file.cipher === undefined || !this.cipher) return sealed;
    try {
      return await this.cipher.decrypt(sealed);
    } catch {
      throw new MwsError(
        'secrets_locked',
        `A secret in ${this.path} cannot be opened with this user's keychain; set it again with \`mws upstream set\`.`,
        { path: this.path },
      );
    }
  }

  async get(name: string): Promise<string | undefined> {
    checkName(name);
    await this.queue.idle();
    const file = await this.read();
    const sealed = Object.hasOwn(file.secrets, name) ? file.secrets[name] : undefined;
    return sealed === undefined ? undefined : this.open(file, sealed);
  }

  async list(): Promise<string[]> {
    await this.queue.idle();
    return Object.keys((await this.read()).secrets).sort();
  }

  async set(name: string, value: string): Promise<void> {
    checkName(name);
    if (typeof value !== 'string') throw new MwsError('usage', "A secret's value must be a string.");
    await this.write((plain) => void (plain[name] = value));
  }

  async delete(name: string): Promise<boolean> {
    checkName(name);
    return this.write((plain) => {
      const had = Object.hasOwn(plain, name);
      delete plain[name];
      return had;
    });
  }

  /** Opens every value, applies the change, seals and writes the whole file atomically (0600). */
  private write(change: (plain: Record<string, string>) => boolean | void): Promise<boolean> {
    return this.queue.run(async () => {
      const file = await this.read();
      const plain: Record<string, string> = Object.create(null) as Record<string, string>;
      for (const [k, v] of Object.entries(file.secrets)) plain[k] = await this.open(file, v);
      const answer = change(plain) ?? true;
      // No prototype: a name like "__proto__" is a key like any other.
      const secrets = Object.create(null) as Record<string, string>;
      for (const k of Object.keys(plain).sort()) secrets[k] = this.cipher ? await this.cipher.encrypt(plain[k]!) : plain[k]!;
      const next: SecretsFile = { version: 1, ...(this.cipher ? { cipher: this.cipher.id } : {}), secrets };
      await writeJsonAtomic(this.path, next, 0o600);
      return answer;
    });
  }
}

/** A store in memory, for unit tests and the demo. */
export class MemorySecretStore implements SecretStore {
  private readonly values = new Map<string, string>();
  async get(name: string): Promise<string | undefined> {
    return this.values.get(name);
  }
  async set(name: string, value: string): Promise<void> {
    checkName(name);
    this.values.set(name, value);
  }
  async delete(name: string): Promise<boolean> {
    return this.values.delete(name);
  }
  async list(): Promise<string[]> {
    return [...this.values.keys()].sort();
  }
}
