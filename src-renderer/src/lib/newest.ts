// Reads whose answers may come back out of order (HTTP) must not show a state already gone.

/**
 * A sequence of reads of one thing: an answer (or a failure given to `failed`) is kept unless one begun
 * after it was kept already. Unlike dropping every answer but the last begun, a screen that re-reads more
 * often than a read takes still shows each answer as it arrives. Once a read settles, what is shown is
 * at least as new. Without `failed`, a failure is thrown to the caller (an action reports its own) and
 * what is shown stays.
 */
export function newest<T>(keep: (value: T) => void): (read: Promise<T>, failed?: (err: Error) => void) => Promise<void> {
  let started = 0;
  let kept = 0;
  return async (read, failed) => {
    const mine = ++started;
    try {
      const value = await read;
      if (mine > kept) {
        kept = mine;
        keep(value);
      }
    } catch (err) {
      if (!failed) throw err;
      if (mine > kept) {
        kept = mine;
        failed(err as Error);
      }
    }
  };
}
