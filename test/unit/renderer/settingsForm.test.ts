// The General form never loses what was typed to a read, and a save never replaces what was saved
// elsewhere to a field the user did not edit.
import { describe, expect, it } from 'vitest';
import { settingsEdits, settle } from '../../../src-renderer/src/lib/settingsForm.js';
import type { SettingsView } from '../../../src-main/core/control/contract.js';

const view = (over: Partial<SettingsView> = {}, promote: Partial<SettingsView['promote']> = {}): SettingsView => ({
  port: 7777,
  compactDescriptions: false,
  promote: { minSessions: 2, minCalls: 3, windowDays: 14, pinDecayDays: 30, ...promote },
  configPath: '/c.json',
  bounds: {} as SettingsView['bounds'],
  ...over,
});

describe('settingsEdits', () => {
  it('sends only the fields the form changed from the read it was filled from', () => {
    const base = view();
    const form = view({}, { minSessions: '7' as unknown as number });
    expect(settingsEdits(form, base, false)).toEqual({ promote: { minSessions: 7 } });
    expect(settingsEdits(base, base, false)).toEqual({});
    expect(settingsEdits(view({ port: '' as unknown as number }), base, false)).toEqual({ port: null });
  });

  it("sends the desktop app's switches only in the desktop app, and only those changed", () => {
    const d = { notifyDemotions: true, notifyUpstreams: true, notifyApprovals: true, startAtLogin: false, remote: '' };
    const base = view({ desktop: d });
    const form = view({ desktop: { ...d, startAtLogin: true } });
    expect(settingsEdits(form, base, true)).toEqual({ desktop: { startAtLogin: true } });
    expect(settingsEdits(form, base, false)).toEqual({});
  });
});

describe('settle', () => {
  it('shows the answer when nothing is edited', () => {
    const first = settle(undefined, view(), false);
    const next = settle(first, view({ compactDescriptions: true }), false);
    expect(next.form.compactDescriptions).toBe(true);
    expect(next.conflicts).toEqual([]);
  });

  it('keeps edits against a read that answers later, shows the other fields as read, and names no conflict', () => {
    const first = settle(undefined, view(), false);
    const typed = { ...first, form: view({}, { minSessions: 7 }) };
    const next = settle(typed, view({ compactDescriptions: true }), false);
    expect(next.form.promote.minSessions).toBe(7);
    expect(next.form.compactDescriptions).toBe(true);
    expect(next.conflicts).toEqual([]);
    // The save then sends the edit alone: the change made elsewhere stays.
    expect(settingsEdits(next.form, next.base, false)).toEqual({ promote: { minSessions: 7 } });
  });

  it('keeps the form object when no other field moved (the field being typed in is not rewritten)', () => {
    const first = settle(undefined, view(), false);
    const typed = { ...first, form: view({}, { minSessions: 7 }) };
    expect(settle(typed, view(), false).form).toBe(typed.form);
  });

  it('names an edited field that was also changed elsewhere', () => {
    const first = settle(undefined, view(), false);
    const typed = { ...first, form: view({}, { minSessions: 7 }) };
    const next = settle(typed, view({}, { minSessions: 4 }), false);
    expect(next.form.promote.minSessions).toBe(7);
    expect(next.conflicts).toEqual(['minimum sessions']);
    expect(settingsEdits(next.form, next.base, false)).toEqual({ promote: { minSessions: 7 } });
  });

  it("takes a save's answer as the new base, keeping edits typed while it was on its way", () => {
    const first = settle(undefined, view(), false);
    const sent = view({}, { minSessions: 7 });
    const typedSince = { ...first, form: view({}, { minSessions: 7, minCalls: 9 }) };
    const next = settle(typedSince, view({}, { minSessions: 7 }), false, sent);
    expect(next.form.promote.minCalls).toBe(9);
    expect(settingsEdits(next.form, next.base, false)).toEqual({ promote: { minCalls: 9 } });
    const clean = settle({ ...first, form: sent }, view({}, { minSessions: 7 }), false, sent);
    expect(clean.form).not.toBe(sent);
    expect(clean.conflicts).toEqual([]);
  });

  it("after a save with edits typed since, shows another window's change in the fields not typed in, and never sends it back", () => {
    const first = settle(undefined, view(), false);
    const sent = view({ port: 8888 });
    // another window set minCalls to 9; the user saved the port and typed window days while it was on its way
    const typedSince = { ...first, form: view({ port: 8888 }, { windowDays: 20 }) };
    const next = settle(typedSince, view({ port: 8888 }, { minCalls: 9 }), false, sent);
    expect(next.form.promote).toMatchObject({ minCalls: 9, windowDays: 20 });
    expect(settingsEdits(next.form, next.base, false)).toEqual({ promote: { windowDays: 20 } });
  });

  it('names no conflict where the value saved elsewhere is the one typed here (its own save, read early)', () => {
    const first = settle(undefined, view(), false);
    const typed = { ...first, form: view({ port: 8888 }) };
    expect(settle(typed, view({ port: 8888 }), false).conflicts).toEqual([]);
  });
});
