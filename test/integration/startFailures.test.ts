// Start-up failures of the runtime: a state folder that cannot be used, a folder
// where a state file should be, a taken port, a host that cannot be bound. Each ends with one sentence
// on stderr and exit code 1: never a stack trace, never a hang.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { runMws } from '../helpers/processes.js';
import { tempDir } from '../helpers/app.js';
import { listenError } from '../../src-main/core/listenError.js';

let taken: Server;
let takenPort: number;
beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
  takenPort = (taken.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((r) => taken.close(() => r())));

async function serveWith(config: Record<string, unknown>, args: string[] = ['--port', '0']) {
  const dir = tempDir();
  const cfg = join(dir, 'config.json');
  writeFileSync(cfg, JSON.stringify({ upstream: { builtin: 'demo' }, ...config }));
  return runMws(['serve', '--config', cfg, ...args]);
}

function expectOneSentence(r: { code: number | null; err: string }, pattern: RegExp) {
  expect(r.code).toBe(1);
  const lines = r.err.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(r.err).not.toMatch(/\n\s+at |Error:/);
}

describe('mws serve that cannot start', () => {
  it('says the state folder is a file', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), 'x');
    expectOneSentence(
      await serveWith({ stateDir: join(dir, 'file') }),
      /^mws: The state folder .*\/file is not a folder \(a file is in the way\)\./,
    );
  });

  it('says a state folder cannot be created where folders cannot be made, instead of hanging at full CPU', async () => {
    expectOneSentence(
      await serveWith({ stateDir: '/proc/1/mws-state' }),
      /^mws: The state folder \/proc\/1\/mws-state cannot be created: \/proc\/1 does not accept new folders\./,
    );
  });

  it.each(['catalog.json', 'working-set.json', 'calls.jsonl', 'agents/default.json', 'secrets.json'])(
    'names %s when a folder stands where that state file should be',
    async (file) => {
      const stateDir = join(tempDir(), 'state');
      mkdirSync(join(stateDir, file), { recursive: true });
      expectOneSentence(
        await serveWith({ stateDir }),
        new RegExp(`^mws: ${join(stateDir, file).replace(/[.]/g, '\\.')} is a folder, but Working Set keeps a file there\\.`),
      );
    },
  );

  it('says the port is taken', async () => {
    expectOneSentence(
      await serveWith({ stateDir: join(tempDir(), 's') }, ['--port', String(takenPort)]),
      new RegExp(`^mws: Port ${takenPort} on 127\\.0\\.0\\.1 is already in use\\.`),
    );
  });

  it('says a loopback-looking host that validation accepts cannot be bound', async () => {
    expectOneSentence(
      await serveWith({ stateDir: join(tempDir(), 's'), listen: { host: '127.300.0.1' } }),
      /^mws: Cannot listen on 127\.300\.0\.1:0: /,
    );
  });
});

describe('listenError', () => {
  it('turns a privileged port refusal into a sentence (root cannot reproduce it, so the mapping is tested directly)', () => {
    const e = listenError('127.0.0.1', 80, Object.assign(new Error('listen EACCES'), { code: 'EACCES' }));
    expect(e.message).toBe(
      'Cannot listen on 127.0.0.1:80: ports below 1024 need administrator rights. Use a port from 1024 to 65535 ("listen.port" or --port).',
    );
  });
});
