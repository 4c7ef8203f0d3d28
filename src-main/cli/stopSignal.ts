// Waiting for Ctrl-C or SIGTERM in a command that runs until it is stopped (`mws serve`).

/**
 * Resolves at the first SIGINT or SIGTERM, so the command can stop in order; a second one ends the process
 * at once (a stop that hangs on an upstream). The listeners stay for the life of the process: signal-exit,
 * which write-file-atomic registers while it writes a state file, re-raises a signal no other listener
 * holds, and so killed `mws serve` halfway through stopping, its last state unsaved.
 */
export function untilStopSignal(say: (m: string) => void): Promise<void> {
  return new Promise((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        say(`${signal} received again, stopping now.`);
        process.exit(1);
      }
      stopping = true;
      say(`${signal} received, stopping.`);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
