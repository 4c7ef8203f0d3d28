// A token is durable before it is used: a sign-in server that rotates refresh tokens forgets the old one
// as it answers, so a new token handed to a request before it is on disk is a sign-in lost at a kill -9.
// The store's writes go through a twin that holds each write open until the test lets it finish.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileOAuthStore, OAUTH_FILE } from '../../../src-main/core/upstream/oauth/store.js';
import { UpstreamAuth } from '../../../src-main/core/upstream/oauth/upstreamAuth.js';
import { SignInFlows } from '../../../src-main/core/upstream/oauth/flows.js';
import { writeJsonAtomic } from '../../../src-main/core/store/atomicJson.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import { tempDir } from '../../helpers/app.js';

type Held = { finish: (ok?: boolean) => void };

/** writeJsonAtomic, each write held open until the test calls its `finish` (false: a full disk). */
function heldWrites() {
  const started: Held[] = [];
  const waiting: Array<(h: Held) => void> = [];
  const write = (path: string, value: unknown, mode: number) =>
    new Promise<void>((resolve, reject) => {
      const h: Held = {
        finish: (ok = true) =>
          ok
            ? void writeJsonAtomic(path, value, mode).then(resolve, reject)
            : reject(Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' })),
      };
      const taker = waiting.shift();
      if (taker) taker(h);
      else started.push(h);
    });
  /** The next write, once the store has started it. */
  const nextWrite = () =>
    new Promise<Held>((resolve) => {
      const h = started.shift();
      if (h) resolve(h);
      else waiting.push(resolve);
    });
  return { write, nextWrite };
}

/** Lets every promise that can settle now settle (no timers). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

const auth = (store: FileOAuthStore) =>
  new UpstreamAuth({
    vendor: 'x',
    serverUrl: 'https://a.example/mcp',
    config: {},
    store,
    flows: new SignInFlows(() => 0),
    redirectUrl: () => 'http://127.0.0.1:1/oauth/callback',
    now: () => 1000,
    log: new MemoryLogger(),
  });

describe('refreshed tokens are durable before they are used', () => {
  it('a request asking for the token while the new one is being written waits for the write, then gets it', async () => {
    const dir = tempDir();
    const w = heldWrites();
    const provider = auth(new FileOAuthStore(dir, new MemoryLogger(), w.write));
    const first = provider.saveTokens({ access_token: 'AT1', token_type: 'Bearer', refresh_token: 'RT1' });
    (await w.nextWrite()).finish();
    await first;

    // The sign-in server rotated RT1 → RT2 and answered: the SDK saves the answer.
    const saving = provider.saveTokens({ access_token: 'AT2', token_type: 'Bearer', refresh_token: 'RT2' });
    const write = await w.nextWrite();
    let handed: string | undefined;
    const asked = provider.tokens().then((t) => (handed = t?.access_token));
    await settle();
    // Not on disk yet: nothing is handed out (it once got AT2 here, before the file held it).
    expect(handed).toBeUndefined();
    expect(JSON.parse(readFileSync(join(dir, OAUTH_FILE), 'utf8')).upstreams.x.tokens.refresh_token).toBe('RT1');
    write.finish();
    await saving;
    await asked;
    expect(handed).toBe('AT2');
    expect(JSON.parse(readFileSync(join(dir, OAUTH_FILE), 'utf8')).upstreams.x.tokens.refresh_token).toBe('RT2');
  });

  it('a write that fails leaves readers with what the disk holds, and fails its own caller', async () => {
    const dir = tempDir();
    const w = heldWrites();
    const store = new FileOAuthStore(dir, new MemoryLogger(), w.write);
    const provider = auth(store);
    const first = provider.saveTokens({ access_token: 'AT1', token_type: 'Bearer', refresh_token: 'RT1' });
    (await w.nextWrite()).finish();
    await first;
    const saving = provider.saveTokens({ access_token: 'AT2', token_type: 'Bearer', refresh_token: 'RT2' });
    (await w.nextWrite()).finish(false);
    await expect(saving).rejects.toThrow(/ENOSPC/);
    expect((await provider.tokens())?.access_token).toBe('AT1');
    // A fresh store (the next start) reads the same.
    expect((await new FileOAuthStore(dir, new MemoryLogger()).get('x'))?.tokens?.refresh_token).toBe('RT1');
  });
});
