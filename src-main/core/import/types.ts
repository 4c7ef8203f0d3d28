// What the import step shows and answers (no Node imports here: the renderer reads these types).

export type ClientId = 'claude-desktop' | 'claude-code' | 'cursor' | 'vscode' | 'codex';

/** How a file keeps its servers: the JSON key that holds them (or the TOML table). */
export type FileFormat = 'mcpServers' | 'servers' | 'codex-toml' | 'claude-code-user';

export type FoundServer = {
  /** The name the client gives it. */
  name: string;
  /** The upstream name it gets here: the client's name, made a vendor slug only where it must be. */
  vendor: string;
  /** Where it sits in the file, for the client edit: keys from the root. */
  path: string[];
  scope: string;
  kind: 'stdio' | 'http';
  command: string | null;
  args: string[];
  url: string | null;
  envNames: string[];
  headerNames: string[];
  /** Why it may not work as it is (an SSE-only server, a variable the client fills in). */
  notes: string[];
  /**
   * Why it is not offered as it is (the window greys it and says this): Working Set's own entry, the
   * same server already an upstream under another name, or its name taken (then it can be imported
   * under another name, `suggested` being a free one). Set by a scan that knows the config.
   */
  blocked?: { kind: 'self' | 'duplicate' | 'exists'; reason: string; suggested?: string };
};

export type ClientEdit = {
  /** The whole file as it should read after the edit. */
  text: string;
  /** Where appropriate, the client's own commands that make the same change. */
  commands: string[];
  /** One line on what to do, for people. */
  summary: string;
  /** False when the file could not be edited safely (then `text` is the file unchanged, and it is never written). */
  editable: boolean;
};

export type ImportSource = {
  client: ClientId | null;
  clientName: string;
  file: string;
  format: FileFormat;
  scope: string;
  servers: FoundServer[];
  /** Why the file could not be read, in a sentence. */
  error: string | null;
};

export type ImportResult = {
  file: string;
  added: Array<{ name: string; vendor: string }>;
  skipped: Array<{ name: string; reason: string }>;
  /** Upstreams that were replaced: only `mws init`'s untouched sample is, by a real server of its name. */
  replaced?: string[];
  /** The copy of the Working Set config made before it was changed. */
  backup: string | null;
  /** The change to make in the client so its servers are reached through Working Set. */
  clientEdit: ClientEdit & { file: string; url: string };
  /** Set when the client file itself was rewritten (after its own backup). */
  clientBackup: string | null;
  dryRun: boolean;
  /** Secret values moved to the secret store ("github: headers.Authorization"); config.json names them by reference. */
  secretsStored?: string[];
};

/** An upstream as the user gives it (the window's form, an imported client config). */
export type UpstreamInput =
  | { url: string; headers?: Record<string, string>; bearerTokenEnvVar?: string }
  | { command: string; args?: string[]; env?: Record<string, string>; cwd?: string; envFile?: string };
