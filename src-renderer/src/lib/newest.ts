// Reads whose answers may come back out of order (HTTP) must not show a state already gone.

/** Keeps one read's answer; `answer` keeps an action's. */
export type Keeper<T> = {
  (read: Promise<T>, failed?: (err: Error) => void): Promise<void>;
  /**
   * An action's answer (a save, a removal): the state after the action, which is newer than anything a
   * read begun before the action answered could hold, so it counts as begun when it answers. A read
   * begun while the action was on its way can answer with the state before it: that answer is dropped.
   * A failure is thrown to the caller and what is shown stays.
   */
  answer: (action: Promise<T>) => Promise<void>;
};

/**
 * A sequence of reads of one thing: an answer (or a failure given to `failed`) is kept unless one begun
 * after it was kept already. Unlike dropping every answer but the last begun, a screen that re-reads more
 * often than a read takes still shows each answer as it arrives. Once a read settles, what is shown is
 * at least as new. Without `failed`, a failure is thrown to the caller (an action reports its own) and
 * what is shown stays.
 */
export function newest<T>(keep: (value: T) => void): Keeper<T> {
  let started = 0;
  let kept = 0;
  const settle = (mine: number, value: T) => {
    if (mine > kept) {
      kept = mine;
      keep(value);
    }
  };
  const keeper = async (read: Promise<T>, failed?: (err: Error) => void) => {
    const mine = ++started;
    try {
      settle(mine, await read);
    } catch (err) {
      if (!failed) throw err;
      if (mine > kept) {
        kept = mine;
        failed(err as Error);
      }
    }
  };
  return Object.assign(keeper, {
    answer: async (action: Promise<T>) => {
      const value = await action;
      settle(++started, value);
    },
  });
}
