// Counting tokens in a worker thread that ends as soon as it has answered. The
// tokenizer's tables (o200k_base: tens of MB of heap once parsed, and as much again while parsing) then
// live in the worker's own heap and are returned whole when it ends, instead of staying in the
// proxy's heap for the life of the process. Reports after the first find their counts in caches
// (report.ts, tokenCounts.ts) and start no worker at all.
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';

/**
 * How long an idle worker stays: none past the current turn. A report asks once (for the whole
 * toolbox; its agents' listings are then in the caches), and the worker's memory should be back
 * before anyone reads the memory figure after it.
 */
export const TOKENIZER_IDLE_MS = 0;

// A CommonJS script, so sources (tsx, vitest) and the built bundle run the same worker without a
// separate file to build and find; the tokenizer is required by the path resolved here.
// (A worker ends at once on terminate: its heap goes back to the system whole.)
const SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const { countTokens } = require(workerData.tokenizer);
parentPort.on('message', (m) => parentPort.postMessage({ id: m.id, counts: m.texts.map((t) => countTokens(t)) }));
`;

let worker: Worker | undefined;
let idleTimer: NodeJS.Timeout | undefined;
let nextId = 0;
const waiting = new Map<number, { resolve: (c: number[]) => void; reject: (e: Error) => void }>();
let started = 0;

/** For tests: how many workers this process started. */
export function tokenizerWorkersStarted(): number {
  return started;
}

function fail(err: Error): void {
  for (const w of waiting.values()) w.reject(err);
  waiting.clear();
  worker = undefined;
}

function ensureWorker(): Worker {
  if (worker) return worker;
  const tokenizer = createRequire(import.meta.url).resolve('gpt-tokenizer');
  const w = new Worker(SCRIPT, { eval: true, workerData: { tokenizer } });
  started++;
  w.on('message', (m: { id: number; counts: number[] }) => {
    waiting.get(m.id)?.resolve(m.counts);
    waiting.delete(m.id);
    if (waiting.size === 0) {
      w.unref(); // an idle worker never keeps the process alive
      idle();
    }
  });
  w.on('error', (err) => fail(new Error(`the tokenizer worker failed: ${err.message}`)));
  w.on('exit', (code) => {
    if (worker === w) fail(new Error(`the tokenizer worker ended (exit code ${code}) before it answered`));
  });
  worker = w;
  return w;
}

function idle(): void {
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    const w = worker;
    worker = undefined;
    void w?.terminate();
  }, TOKENIZER_IDLE_MS);
  idleTimer.unref();
}

/** Token counts (o200k_base) of each text, counted in the worker. */
export function countTokensOf(texts: string[]): Promise<number[]> {
  if (texts.length === 0) return Promise.resolve([]);
  clearTimeout(idleTimer);
  const w = ensureWorker();
  w.ref(); // a command waiting for its report must not end for want of other work
  const id = nextId++;
  return new Promise<number[]>((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    w.postMessage({ id, texts });
  });
}
