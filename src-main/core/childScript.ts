// A short CommonJS script run in a child process of this same binary (`node -e SCRIPT <module>`), for
// work whose memory or blocking must stay out of the proxy: the tokenizer of reports
// (control/report/tokenizer.ts) and the search model's runtime and tokenizer (search/embed/modelProcess.ts).
// Given to `-e`, the sources (tsx, vitest) and the built bundle run the same code without a separate file
// to build and find; the modules the script needs are resolved here and passed as its arguments.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';

/** How much of a child's stderr is kept: enough for its last message. */
const STDERR_KEPT = 2000;

export type ScriptChild = {
  child: ChildProcess;
  /** The last line the child wrote on stderr, or '' (for a sentence saying why it ended). */
  lastError(): string;
};

/**
 * Starts `script` with the resolved paths of `modules` as process.argv[1], [2]… (CommonJS entries where a
 * package has both). stderr is always piped (and does not keep this process alive); stdin and stdout are
 * pipes or ignored; `ipc` adds a channel.
 */
export function spawnScript(
  script: string,
  modules: string | readonly string[],
  o: {
    stdin: 'pipe' | 'ignore';
    stdout: 'pipe' | 'ignore';
    ipc?: { serialization: 'json' | 'advanced' };
    /** Node's and V8's options for the child (before `-e`). */
    nodeOptions?: readonly string[];
    /** Added to this process's environment. */
    env?: Record<string, string>;
  },
): ScriptChild {
  // Electron's binary runs as plain Node with ELECTRON_RUN_AS_NODE set; plain Node ignores it.
  const require = createRequire(import.meta.url);
  const paths = (typeof modules === 'string' ? [modules] : modules).map((m) => require.resolve(m));
  const child = spawn(process.execPath, [...(o.nodeOptions ?? []), '-e', script, ...paths], {
    stdio: [o.stdin, o.stdout, 'pipe', ...(o.ipc ? (['ipc'] as const) : [])],
    ...(o.ipc ? { serialization: o.ipc.serialization } : {}),
    env: { ...process.env, ...o.env, ELECTRON_RUN_AS_NODE: '1' },
    windowsHide: true,
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString('utf8')).slice(-STDERR_KEPT)));
  (child.stderr as { unref?: () => void } | null)?.unref?.();
  return { child, lastError: () => stderr.trim().split('\n').pop() ?? '' };
}
