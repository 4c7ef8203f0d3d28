// One order for names everywhere: by UTF-16 code unit. Not localeCompare: its order depends on the
// machine's locale (two replicas of a team on different hosts would pick different tools to demote on a
// tie), and its first use loads ICU's collation data into the process (~2.5 MB resident for good).

/** Compares two strings by code unit: for sort(). */
export const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
