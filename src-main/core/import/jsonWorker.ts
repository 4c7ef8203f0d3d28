// Client JSON files read and edited in a worker thread: Claude Code's ~/.claude.json keeps every
// project's history and reaches hundreds of MB, and parsing that on the proxy's event loop held every
// agent for seconds. The worker reads the file itself (its text never crosses to this thread for a
// scan), parses it with jsonc-parser and answers only the parts that hold servers.
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import type { FileFormat } from './types.js';

/** Reading or editing a client file gives up after this long (a file on a hung network mount); a busy
 *  2-core machine takes tens of seconds for a 150 MB file at the worker's lowered priority. */
export const JSON_WORKER_MS = 180_000;

// A CommonJS script, so sources (tsx, vitest) and the built bundle run the same worker without a
// separate file to build and find; jsonc-parser is required by the path resolved here.
// On Linux the worker lowers its own priority (there the call applies to the calling thread only), so on a
// machine with few cores the proxy's own thread is given the CPU first while a big file is parsed; by
// 5, not 19: at 19 other busy processes starved it for minutes (seen in CI with both cores busy).
const SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
if (process.platform === 'linux') try { require('node:os').setPriority(0, 5); } catch {}
const { readFileSync } = require('node:fs');
const jsonc = require(workerData.jsonc);
const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\\n' } };
const obj = (v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v : undefined);
function parse(text) {
  const errors = [];
  let value;
  try {
    value = jsonc.parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  } catch (err) {
    if (err instanceof RangeError) return { problem: 'it nests too deeply to read, more levels than any config needs' };
    throw err;
  }
  if (errors.length) {
    const e = errors[0];
    const before = text.slice(0, e.offset);
    const line = before.split('\\n').length;
    const column = e.offset - before.lastIndexOf('\\n');
    return { problem: jsonc.printParseErrorCode(e.error) + ' on line ' + line + ', column ' + column };
  }
  return { value };
}
function servers(doc, format) {
  const d = obj(doc);
  if (!d) return {};
  if (format === 'servers') return { servers: d.servers };
  const out = { mcpServers: d.mcpServers };
  if (format === 'claude-code-user' && obj(d.projects)) {
    out.projects = {};
    for (const [dir, p] of Object.entries(d.projects)) if (obj(p) && p.mcpServers !== undefined) out.projects[dir] = { mcpServers: p.mcpServers };
  }
  return out;
}
const m = workerData.job;
try {
  const text = readFileSync(m.file, 'utf8');
  if (m.op === 'read') {
    const r = parse(text);
    if (r.problem) parentPort.postMessage({ problem: r.problem });
    else {
      // Copying a deeply nested value to the other thread recurses too.
      try {
        parentPort.postMessage({ doc: servers(r.value, m.format) });
      } catch (err) {
        if (!(err instanceof RangeError)) throw err;
        parentPort.postMessage({ problem: 'it nests too deeply to read, more levels than any config needs' });
      }
    }
  } else {
    const r = parse(text);
    if (r.problem) parentPort.postMessage({ problem: r.problem });
    else {
      let t = text;
      for (const e of m.edits) t = jsonc.applyEdits(t, jsonc.modify(t, e.path, e.value, FORMAT));
      parentPort.postMessage({ text: t });
    }
  }
} catch (err) {
  parentPort.postMessage({ failed: { code: err && err.code, message: String(err && err.message) } });
}
`;

export type JsonEdit = { path: string[]; value: unknown };
export type WorkerAnswer = { doc?: Record<string, unknown>; text?: string; problem?: string; failed?: { code?: string; message: string } };

type Job = { op: 'read'; file: string; format: FileFormat } | { op: 'edit'; file: string; edits: JsonEdit[] };

/** One job in a fresh worker, which ends when it has answered (its heap goes back whole). */
export function runJsonJob(job: Job): Promise<WorkerAnswer> {
  const jsonc = createRequire(import.meta.url).resolve('jsonc-parser');
  return new Promise((resolve, reject) => {
    const w = new Worker(SCRIPT, { eval: true, workerData: { jsonc, job } });
    const timer = setTimeout(() => {
      void w.terminate();
      reject(new Error(`reading ${job.file} took longer than ${JSON_WORKER_MS / 1000} s`));
    }, JSON_WORKER_MS);
    timer.unref();
    w.once('message', (m: WorkerAnswer) => {
      clearTimeout(timer);
      void w.terminate();
      resolve(m);
    });
    w.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`the worker reading ${job.file} failed: ${err.message}`));
    });
    // Out of memory, or killed: it ends without a word (a settled promise ignores this).
    w.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`reading ${job.file} stopped (exit code ${code}); the file may be too large for this machine's memory`));
    });
  });
}
