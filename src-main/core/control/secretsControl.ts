// The ControlApi's secrets half: giving an upstream a value it needs, listing the secret store's
// names and moving config.json's plain-text secrets into the store. Values come in and never go out.
import { MwsError } from '../errors.js';
import type { Config, UpstreamConfig } from '../config/schema.js';
import { SINGLE_UPSTREAM_KEY } from '../config/schema.js';
import type { ConfigEditor, Raw } from '../config/editor.js';
import type { ToolboxCatalog } from '../toolbox/merge.js';
import type { SecretStore } from '../secrets/store.js';
import { fieldSecretName, inputName, ownsSecret, placeholderIds, secretRef } from '../secrets/refs.js';
import { applyMoves, planConfigMoves, storeMoves } from '../secrets/move.js';
import { maskUrlsIn } from '../redact.js';
import type { ControlHandlers } from './contract.js';

/** `catalog`: the running one (a CLI command with no instance running passes one that connects nothing). */
export type SecretsParts = {
  config: Config;
  editor: ConfigEditor;
  catalog: Pick<ToolboxCatalog, 'reconnect' | 'statuses'>;
  secrets: SecretStore;
};

type SecretsMethods = Pick<ControlHandlers, 'setUpstreamValue' | 'secretNames' | 'migrateSecrets'>;

/** Every string of an upstream's config a reference may sit in, with the header/env name it sits under. */
function valuesOf(u: UpstreamConfig): Array<{ value: string; field?: 'headers' | 'env'; key?: string }> {
  if (u.kind === 'http')
    return [{ value: u.url }, ...Object.entries(u.headers).map(([key, value]) => ({ value, field: 'headers' as const, key }))];
  if (u.kind === 'stdio')
    return [...u.args.map((value) => ({ value })), ...Object.entries(u.env).map(([key, value]) => ({ value, field: 'env' as const, key }))];
  return [];
}

/** Where `key`'s value goes: an input the config asks for, an existing secret reference, or a new secret field. */
function target(vendor: string, u: UpstreamConfig, key: string): { stored: 'input' | 'secret'; name: string; field?: 'headers' | 'env' } {
  const vals = valuesOf(u);
  const asks = new Set(
    vals.flatMap((v) =>
      placeholderIds(v.value)
        .filter((p) => p.kind !== 'secret')
        .map((p) => p.id),
    ),
  );
  if (u.kind === 'http' && u.bearerTokenEnvVar) asks.add(u.bearerTokenEnvVar);
  if (asks.has(key)) return { stored: 'input', name: inputName(vendor, key) };
  // A header or env value that is one reference, or a reference named by its own name.
  for (const v of vals) {
    const refs = placeholderIds(v.value).filter((p) => p.kind === 'secret');
    // Another upstream's secret is never written here (nor read when connecting): the field gets its own.
    if (refs.length === 1 && (v.key === key || refs[0]!.id === key) && ownsSecret(vendor, refs[0]!.id))
      return { stored: 'secret', name: refs[0]!.id };
  }
  if (u.kind === 'builtin') throw new MwsError('usage', `Upstream "${vendor}" is built in and takes no values.`);
  const field = u.kind === 'http' ? 'headers' : 'env';
  if (!/^[A-Za-z0-9_.-]{1,128}$/.test(key) || ['__proto__', 'constructor', 'prototype'].includes(key))
    throw new MwsError(
      'usage',
      `"${key.slice(0, 60)}" is not a value upstream "${vendor}" asks for, nor a ${field === 'headers' ? 'header' : 'variable'} name (letters, digits, _ . -).`,
    );
  return { stored: 'secret', name: fieldSecretName(vendor, field, key), field };
}

export function secretsControl(p: SecretsParts): SecretsMethods {
  return {
    async setUpstreamValue(a) {
      const u = Object.hasOwn(p.config.upstreams, a.vendor) ? p.config.upstreams[a.vendor] : undefined;
      if (!u)
        throw new MwsError(
          'not_found',
          `No upstream "${a.vendor}"; the configured ones are ${Object.keys(p.config.upstreams).join(', ') || 'none'}.`,
          { vendor: a.vendor },
        );
      const t = target(a.vendor, u, a.key);
      await p.secrets.set(t.name, a.value);
      if (t.field) {
        // A new secret header/env value: the file names it by reference; the edit reconnects it.
        const field = t.field;
        await p.editor.update((raw) => {
          const ups =
            a.vendor === SINGLE_UPSTREAM_KEY && 'upstream' in raw ? { [a.vendor]: raw.upstream } : (raw.upstreams as Raw | undefined);
          const entry = ups?.[a.vendor] as Raw | undefined;
          if (!entry)
            throw new MwsError(
              'not_found',
              `Upstream "${a.vendor}" is not in the config file (it may come from --demo); nothing was saved there.`,
            );
          const rec = (typeof entry[field] === 'object' && entry[field] !== null ? entry[field] : (entry[field] = {})) as Raw;
          rec[a.key] = secretRef(t.name);
        });
      } else {
        await p.catalog.reconnect(a.vendor);
      }
      const row = p.catalog.statuses().find((s) => s.vendor === a.vendor);
      return {
        vendor: a.vendor,
        key: a.key,
        stored: t.stored,
        secret: t.name,
        status: row?.status ?? 'starting',
        needs: row?.needs ?? [],
        lastError: row?.lastError ? maskUrlsIn(row.lastError) : null,
      };
    },
    async secretNames() {
      return { names: await p.secrets.list() };
    },
    async migrateSecrets() {
      if (!p.editor.editable) await p.editor.update(() => {}); // throws the editor's own sentence
      const plans = planConfigMoves(p.editor.current());
      if (!plans.length) return { moved: [] };
      for (const plan of plans) await storeMoves(plan.moves, p.secrets);
      await p.editor.update((raw) => plans.forEach((plan) => applyMoves(plan.at(raw), plan.moves)));
      return { moved: plans.flatMap((plan) => plan.moves.map((m) => m.name)) };
    },
  };
}
