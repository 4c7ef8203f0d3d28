// Moving secret values out of an upstream's config JSON into the SecretStore, leaving `${secret:NAME}`
// references behind. Used by `mws import` (values read from another client), the window's save (values
// typed in) and `mws secrets migrate` (values already in config.json). The values are stored first, and
// the config edited after: a config never names a secret the store lacks.
import { isSecretName } from '../redact.js';
import type { SecretStore } from './store.js';
import { fieldSecretName, hasPlaceholder, secretRef } from './refs.js';

type Json = Record<string, unknown>;

/** One value to move: where it sits in an upstream's JSON, and the secret name it goes under. */
export type SecretMove = { field: 'headers' | 'env'; key: string; value: string; name: string };

/** A header or env name as it can appear in a secret's name (other characters become _). */
const namePart = (key: string) => key.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100) || '_';

const recordOf = (u: Json, field: string): Record<string, unknown> | undefined => {
  const v = u[field];
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
};

/** The secret-looking header and env values of one upstream's JSON (references and placeholders stay). */
export function planMoves(vendor: string, upstream: unknown): SecretMove[] {
  if (typeof upstream !== 'object' || upstream === null) return [];
  const moves: SecretMove[] = [];
  for (const field of ['headers', 'env'] as const) {
    for (const [key, value] of Object.entries(recordOf(upstream as Json, field) ?? {})) {
      if (typeof value !== 'string' || value === '' || hasPlaceholder(value) || !isSecretName(key)) continue;
      moves.push({ field, key, value, name: fieldSecretName(vendor, field, namePart(key)) });
    }
  }
  return moves;
}

/**
 * Puts the references in, where the value is still the one moved (a hand edit made meanwhile wins).
 * Synchronous, so it fits inside a ConfigEditor edit.
 */
export function applyMoves(upstream: unknown, moves: readonly SecretMove[]): void {
  if (typeof upstream !== 'object' || upstream === null) return;
  for (const m of moves) {
    const r = recordOf(upstream as Json, m.field);
    if (r && r[m.key] === m.value) r[m.key] = secretRef(m.name);
  }
}

export async function storeMoves(moves: readonly SecretMove[], store: Pick<SecretStore, 'set'>): Promise<void> {
  for (const m of moves) await store.set(m.name, m.value);
}

/** Stores and replaces in one go, for JSON this caller owns (an imported server's settings). */
export async function moveUpstreamSecrets(vendor: string, upstream: Json, store: Pick<SecretStore, 'set'>): Promise<string[]> {
  const moves = planMoves(vendor, upstream);
  await storeMoves(moves, store);
  applyMoves(upstream, moves);
  return moves.map((m) => `${m.field}.${m.key}`);
}

/** Each upstream of a config file's JSON (`upstreams.*`, and the single `upstream`) with its moves. */
export function planConfigMoves(raw: Json): Array<{ vendor: string; at: (raw: Json) => unknown; moves: SecretMove[] }> {
  const out: Array<{ vendor: string; at: (raw: Json) => unknown; moves: SecretMove[] }> = [];
  const ups = recordOf(raw, 'upstreams') ?? {};
  for (const [vendor, u] of Object.entries(ups)) {
    const moves = planMoves(vendor, u);
    if (moves.length) out.push({ vendor, at: (r) => recordOf(r, 'upstreams')?.[vendor], moves });
  }
  const single = planMoves('upstream', raw.upstream);
  if (single.length) out.push({ vendor: 'upstream', at: (r) => r.upstream, moves: single });
  return out;
}
