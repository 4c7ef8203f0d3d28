// The General screen's form against the settings the core holds. The form is filled from one read (its
// base); a save sends only the fields edited since, so a change saved elsewhere meanwhile to another
// field is kept, and a read answering while there are edits never overwrites them.
import type { ControlArgs, SettingsView } from '../../../src-main/core/control/contract.js';

type Field = { label: string; get: (v: SettingsView) => unknown; set: (v: SettingsView, value: unknown) => void };
const PROMOTE = ['minSessions', 'minCalls', 'windowDays', 'pinDecayDays'] as const;
const SWITCHES = ['notifyDemotions', 'notifyUpstreams', 'notifyApprovals', 'startAtLogin', 'remote'] as const;
const PROMOTE_LABELS: Record<(typeof PROMOTE)[number], string> = {
  minSessions: 'minimum sessions',
  minCalls: 'minimum calls',
  windowDays: 'window days',
  pinDecayDays: 'pin decay days',
};
const SWITCH_LABELS: Record<(typeof SWITCHES)[number], string> = {
  notifyDemotions: 'notify on demotions',
  notifyUpstreams: 'notify on upstreams',
  notifyApprovals: 'notify on approvals',
  startAtLogin: 'start at login',
  remote: 'remote Working Set',
};

const CORE_FIELDS: Field[] = [
  { label: 'port', get: (v) => v.port, set: (v, x) => (v.port = x as number) },
  { label: 'compact descriptions', get: (v) => v.compactDescriptions, set: (v, x) => (v.compactDescriptions = x as boolean) },
  ...PROMOTE.map((k) => ({
    label: PROMOTE_LABELS[k],
    get: (v: SettingsView) => v.promote[k],
    set: (v: SettingsView, x: unknown) => (v.promote[k] = x as number),
  })),
];
const DESKTOP_FIELDS: Field[] = SWITCHES.map((k) => ({
  label: SWITCH_LABELS[k],
  get: (v: SettingsView) => v.desktop?.[k],
  set: (v: SettingsView, x: unknown) => v.desktop && ((v.desktop as Record<string, unknown>)[k] = x),
}));

/** A number input left empty reads as null or ''; a number typed may arrive as a string. */
const same = (a: unknown, b: unknown): boolean => (a ?? '') === (b ?? '') || String(a ?? '') === String(b ?? '');
const fields = (desktop: boolean): Field[] => (desktop ? [...CORE_FIELDS, ...DESKTOP_FIELDS] : CORE_FIELDS);

function changed(a: SettingsView, b: SettingsView, desktop: boolean): Field[] {
  return fields(desktop).filter((f) => !same(f.get(a), f.get(b)));
}

/** What a save sends: each field the form changed from its base, and nothing else. */
export function settingsEdits(form: SettingsView, base: SettingsView, desktop: boolean): ControlArgs<'updateSettings'> {
  const out: ControlArgs<'updateSettings'> = {};
  // An empty port is sent as null so that the core refuses it with its own sentence, beside the field.
  if (!same(form.port, base.port)) out.port = (form.port === null || (form.port as unknown) === '' ? null : Number(form.port)) as number;
  if (form.compactDescriptions !== base.compactDescriptions) out.compactDescriptions = form.compactDescriptions;
  for (const k of PROMOTE) if (!same(form.promote[k], base.promote[k])) (out.promote ??= {})[k] = Number(form.promote[k]);
  if (desktop && form.desktop && base.desktop) {
    for (const k of SWITCHES) {
      if (same(form.desktop[k], base.desktop[k])) continue;
      const d = (out.desktop ??= {});
      if (k === 'remote') d.remote = form.desktop.remote;
      else d[k] = form.desktop[k];
    }
  }
  return out;
}

export type FormState = { form: SettingsView; base: SettingsView; conflicts: string[] };

/** `answer` with the given fields taken from `from`. */
function overlay(answer: SettingsView, from: SettingsView, keep: Field[]): SettingsView {
  const out = structuredClone(answer);
  for (const f of keep) f.set(out, f.get(from));
  return out;
}

/**
 * The form after an answer from the core. Without edits it shows the answer. With edits, a read keeps
 * them, shows the answer in every other field, and names each edited field that was also changed
 * elsewhere since the form was filled (saving replaces that change). A save's answer (`sent`: the form as it was saved) becomes the new base, and edits typed
 * while it was on its way stay.
 */
export function settle(now: FormState | undefined, answer: SettingsView, desktop: boolean, sent?: SettingsView): FormState {
  const fresh = (): FormState => ({ form: structuredClone(answer), base: answer, conflicts: [] });
  if (!now) return fresh();
  if (sent) {
    // What was typed after sending stays; every other field shows the answer (another window's change included).
    const since = changed(now.form, sent, desktop);
    return since.length ? { form: overlay(answer, now.form, since), base: answer, conflicts: [] } : fresh();
  }
  const edited = changed(now.form, now.base, desktop);
  if (!edited.length) return fresh();
  const elsewhere = changed(now.base, answer, desktop);
  // A field saved elsewhere to the value typed here (this form's own save, read before its answer came) is no conflict.
  const conflicts = edited.filter((f) => elsewhere.includes(f) && !same(f.get(now.form), f.get(answer))).map((f) => f.label);
  // Nothing else moved: the form object stays, so the window does not rewrite the field being typed in.
  if (elsewhere.every((f) => edited.includes(f))) return { form: now.form, base: now.base, conflicts };
  return { form: overlay(answer, now.form, edited), base: overlay(answer, now.base, edited), conflicts };
}
