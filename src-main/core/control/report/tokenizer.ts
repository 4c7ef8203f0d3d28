// Counting tokens in a short-lived child process. The tokenizer's tables (o200k_base: tens of MB of
// heap once parsed, and as much again while parsing) then live in another process and are returned
// to the system whole when it exits. A worker thread was tried first: its heap went, but the
// allocator kept what the thread had used, and the proxy's RSS stayed up for good
// (docs/research/measured.md). Reports after the first find their counts in caches (report.ts,
// tokenCounts.ts) and start no process at all.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { SerialQueue } from '../../serial.js';

/** What one count may take at most (10,000 definitions take about a second). */
export const TOKENIZER_DEADLINE_MS = 120_000;

// A CommonJS script given to `node -e`, so sources (tsx, vitest) and the built bundle run the same
// code without a separate file to build and find; the tokenizer is required by the path resolved here.
// It reads a JSON array of texts on stdin and writes their counts as a JSON array on stdout.
const SCRIPT = `
const { countTokens } = require(process.argv[1]);
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  const texts = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  process.stdout.write(JSON.stringify(texts.map((t) => countTokens(t))));
});
`;

let started = 0;
/** One count at a time: two reports at once do not start two tokenizers. */
const queue = new SerialQueue();

/** For tests: how many tokenizer processes this process started. */
export function tokenizerProcessesStarted(): number {
  return started;
}

function countInChild(texts: string[]): Promise<number[]> {
  const tokenizer = createRequire(import.meta.url).resolve('gpt-tokenizer');
  return new Promise<number[]>((resolve, reject) => {
    // Electron's binary runs as plain Node with this set; plain Node ignores it.
    const child = spawn(process.execPath, ['-e', SCRIPT, tokenizer], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      windowsHide: true,
    });
    started++;
    const out: Buffer[] = [];
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), TOKENIZER_DEADLINE_MS);
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => (err = (err + c.toString('utf8')).slice(-2000)));
    child.stdin.on('error', () => {}); // an early exit is reported by 'close' below
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`the tokenizer could not be started: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      try {
        const counts = JSON.parse(Buffer.concat(out).toString('utf8')) as unknown;
        if (code === 0 && Array.isArray(counts) && counts.length === texts.length) return resolve(counts as number[]);
      } catch {
        // said below
      }
      reject(
        new Error(
          `the tokenizer ended (${signal ?? `exit code ${code}`}) without its counts${err ? `: ${err.trim().split('\n').pop()}` : ''}`,
        ),
      );
    });
    child.stdin.end(JSON.stringify(texts));
  });
}

/** Token counts (o200k_base) of each text, counted in a child process. */
export function countTokensOf(texts: string[]): Promise<number[]> {
  if (texts.length === 0) return Promise.resolve([]);
  return queue.run(() => countInChild(texts));
}
