import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readJsonSafe, writeJsonAtomic } from '../../../src-main/core/store/atomicJson.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import { SeedWorkingSetFile } from '../../../src-main/core/workingset/seedFile.js';

const isObj = (v: unknown): v is { a: number } => typeof v === 'object' && v !== null && 'a' in v;

describe('atomic JSON files', () => {
  it('writes with mode 0600 and leaves no temp files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mws-store-'));
    await writeJsonAtomic(join(dir, 'x.json'), { a: 1 });
    expect(JSON.parse(readFileSync(join(dir, 'x.json'), 'utf8'))).toEqual({ a: 1 });
    expect(statSync(join(dir, 'x.json')).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['x.json']);
  });

  it('moves a damaged file aside with a warning instead of resetting it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mws-store-'));
    const path = join(dir, 'x.json');
    writeFileSync(path, '{"a": 1,');
    const log = new MemoryLogger();
    const r = await readJsonSafe(path, log, isObj);
    expect(r.kind).toBe('damaged');
    expect(existsSync(path)).toBe(false);
    const aside = readdirSync(dir).find((f) => f.startsWith('x.json.damaged-'))!;
    expect(readFileSync(join(dir, aside), 'utf8')).toBe('{"a": 1,');
    expect(log.lines[0]).toMatch(/was damaged; it was moved to/);
    expect(await readJsonSafe(join(dir, 'none.json'), log, isObj)).toEqual({ kind: 'missing' });
  });
});

describe('the seed working-set file', () => {
  it('reads promoted and pinned names, re-reading on a new mtime and keeping the last good names on a bad edit', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mws-ws-'));
    const log = new MemoryLogger();
    const f = new SeedWorkingSetFile(dir, log);
    expect(f.current()).toEqual([]);
    writeFileSync(f.path, JSON.stringify({ promoted: ['b', 'a'], pinned: ['p'] }));
    expect(f.current()).toEqual(['p', 'b', 'a']);
    writeFileSync(f.path, '{"promoted": [');
    // Force a distinct mtime: some filesystems have coarse timestamps.
    utimesSync(f.path, new Date(), new Date(Date.now() + 5000));
    expect(f.current()).toEqual(['p', 'b', 'a']);
    expect(log.lines.some((l) => l.includes('keeping the previous working set'))).toBe(true);
  });
});
