// Exposed tool names: `vendor__tool` when upstreams are keyed by vendor, the upstream's own name otherwise.

export const VENDOR_SEPARATOR = '__';

export function exposedName(vendor: string, remoteName: string, prefix: boolean): string {
  return prefix ? `${vendor}${VENDOR_SEPARATOR}${remoteName}` : remoteName;
}

/** Splits `vendor__tool` into its parts; names without the separator have no vendor. */
export function splitExposedName(name: string): { vendor: string | undefined; tool: string } {
  const i = name.indexOf(VENDOR_SEPARATOR);
  if (i <= 0) return { vendor: undefined, tool: name };
  return { vendor: name.slice(0, i), tool: name.slice(i + VENDOR_SEPARATOR.length) };
}
