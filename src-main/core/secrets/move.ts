// Moving secret values out of an upstream's config JSON into the SecretStore, leaving `${secret:NAME}`
// references behind. Used by `mws import` (values read from another client), the window's save (values
// typed in) and `mws secrets migrate` (values already in config.json). The values are stored first, and
// the config edited after: a config never names a secret the store lacks.
import { isSecretName } from '../redact.js';
import type { SecretStore } from './store.js';
import { fieldSecretName, hasPlaceholder, placeholderIds, secretRef } from './refs.js';
import { argSecrets } from './args.js';

type Json = Record<string, unknown>;

/**
 * One value to move: where it sits in an upstream's JSON, and the secret name it goes under. A credential
 * inside an argument is `arg.slice(start, end)` of the argument at `index` as it read when planned.
 */
export type SecretMove =
  | { field: 'headers' | 'env'; key: string; value: string; name: string }
  | { field: 'args'; key: string; value: string; name: string; index: number; arg: string; start: number; end: number };

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
  const args = (upstream as Json).args;
  if (Array.isArray(args) && args.every((a): a is string => typeof a === 'string')) {
    // Named by what the argument says (the flag, the variable), made unique among the names this
    // upstream already refers to, so a second migration never reuses a name an earlier one gave out.
    const taken = new Set(args.flatMap((a) => placeholderIds(a).map((r) => r.id)));
    for (const s of argSecrets(args)) {
      const base = fieldSecretName(vendor, 'args', namePart(s.label.replace(/^-+/, '')));
      let name = base;
      for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
      taken.add(name);
      const arg = args[s.index]!;
      moves.push({
        field: 'args',
        key: s.label.replace(/^-+/, ''),
        value: arg.slice(s.start, s.end),
        name,
        index: s.index,
        arg,
        start: s.start,
        end: s.end,
      });
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
  const u = upstream as Json;
  for (const m of moves) {
    if (m.field === 'args') continue;
    const r = recordOf(u, m.field);
    if (r && r[m.key] === m.value) r[m.key] = secretRef(m.name);
  }
  // An argument's credentials are replaced together, from the last back, while it still reads as planned.
  const inArgs = moves.filter((m): m is Extract<SecretMove, { field: 'args' }> => m.field === 'args');
  const args = u.args;
  if (!inArgs.length || !Array.isArray(args)) return;
  const next = [...(args as unknown[])];
  for (const m of [...inArgs].sort((a, b) => b.index - a.index || b.start - a.start)) {
    if (args[m.index] !== m.arg) continue;
    const now = next[m.index] as string;
    next[m.index] = now.slice(0, m.start) + secretRef(m.name) + now.slice(m.end);
  }
  u.args = next;
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
