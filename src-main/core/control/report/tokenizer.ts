// Counting tokens in a short-lived child process. The tokenizer's tables (o200k_base: tens of MB of
// heap once parsed, and as much again while parsing) then live in another process and are returned
// to the system whole when it exits. A worker thread was tried first: its heap went, but the
// allocator kept what the thread had used, and the proxy's RSS stayed up for good
// (docs/research/measured.md). Reports after the first find their counts in caches (report.ts,
// tokenCounts.ts) and start no process at all.
import { spawnScript } from '../../childScript.js';
import { SerialQueue } from '../../serial.js';
import { encodePaged } from '../../pagedBytes.js';

/** What one count may take at most (10,000 definitions take about a second). */
export const TOKENIZER_DEADLINE_MS = 120_000;

// Run by childScript.ts with gpt-tokenizer's path as its argument. It reads a JSON array of texts on stdin and writes their counts as a JSON array on stdout.
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
  return new Promise<number[]>((resolve, reject) => {
    const { child, lastError } = spawnScript(SCRIPT, 'gpt-tokenizer', { stdin: 'pipe', stdout: 'pipe' });
    started++;
    const out: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), TOKENIZER_DEADLINE_MS);
    child.stdout!.on('data', (c: Buffer) => out.push(c));
    child.stdin!.on('error', () => {}); // an early exit is reported by 'close' below
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
      const last = lastError();
      reject(new Error(`the tokenizer ended (${signal ?? `exit code ${code}`}) without its counts${last ? `: ${last}` : ''}`));
    });
    // Paged bytes: written as a string, the ~12 MB of 5,000 definitions were encoded into a malloc'd block (pagedBytes.ts).
    child.stdin!.end(encodePaged(JSON.stringify(texts)));
  });
}

/** Token counts (o200k_base) of each text, counted in a child process. */
export function countTokensOf(texts: string[]): Promise<number[]> {
  if (texts.length === 0) return Promise.resolve([]);
  return queue.run(() => countInChild(texts));
}
