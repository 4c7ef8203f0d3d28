// Text that came from elsewhere (an upstream's tool titles and descriptions, an agent's arguments) as
// it may be shown: without the characters that change how the text around them reads. A right-to-left
// override in a description would show the approvals card's text reversed (a tool that "deletes" reading
// as one that does not); terminal escapes and other C0/C1 controls would reach a terminal or a
// model as they are. One rule for the core (at ingestion), the window and the CLI.

/** Bidirectional embeddings, overrides, isolates and marks (LRE…RLO, LRI…PDI, LRM, RLM, ALM). */
export const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;
/** C0 controls but tab and newline, DEL, and C1 controls. */
const CONTROLS_BUT_TAB_NEWLINE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const UNSAFE = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** Whether `s` holds a bidi control or a control character other than tab and newline. */
export function hasUnsafeText(s: string): boolean {
  return UNSAFE.test(s);
}

/** `s` without bidi controls and without control characters but tab and newline (a CR before a newline included). */
export function plainText(s: string): string {
  if (!UNSAFE.test(s)) return s;
  return s.replace(BIDI_CONTROLS, '').replace(CONTROLS_BUT_TAB_NEWLINE, '');
}
