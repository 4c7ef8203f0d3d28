// The reference forms a config value may hold (refs.ts says what each means), apart so that the
// modules refs.ts itself uses can recognise them too.

/** Any of the three forms inside a string (a value may hold one among other text: "Bearer ${input:token}"). */
export const PLACEHOLDER = /\$\{(secret|input|env):([^}\s]{1,200})\}/g;

/** Whether a config value is (or holds) a placeholder: such values are never secrets in themselves. */
export function hasPlaceholder(value: string): boolean {
  return new RegExp(PLACEHOLDER.source).test(value);
}
