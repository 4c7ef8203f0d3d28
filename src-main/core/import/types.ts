// What the import step shows and answers (no Node imports here: the renderer reads these types).
import type { ClientId, FileFormat } from './clients.js';
import type { FoundServer } from './read.js';
import type { ClientEdit } from './clientEdit.js';

export type { ClientId, FileFormat, FoundServer, ClientEdit };

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
  /** The copy of the Working Set config made before it was changed. */
  backup: string | null;
  /** The change to make in the client so its servers are reached through Working Set. */
  clientEdit: ClientEdit & { file: string; url: string };
  /** Set when the client file itself was rewritten (after its own backup). */
  clientBackup: string | null;
  dryRun: boolean;
};
