// Which client made a call, as the call log and the activity view name it: the same rule on both
// serving paths (the fast path and the SDK's): the client's own name (from the request's envelope,
// else what its session said at initialize), else its User-Agent, else "unknown".

export function callerName(...said: unknown[]): string {
  for (const s of said) if (typeof s === 'string' && s) return s;
  return 'unknown';
}
