// The test PostgreSQL helper: starts with no manual step, answers queries, goes away and comes back.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';

let db: TestPostgres;
beforeAll(async () => {
  db = await startPostgres();
});
afterAll(async () => {
  await db?.stop();
});

async function ask(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('test PostgreSQL', () => {
  it('answers on its OS-assigned port, with a fresh database per ask', async () => {
    const url = await db.freshDatabase();
    expect(await ask(url, 'select 1 as one')).toEqual([{ one: 1 }]);
    expect(db.port).toBeGreaterThan(0);
  });

  it('goes away when paused (a refused connection, not a hang) and keeps its data when resumed', async () => {
    const url = await db.freshDatabase();
    await ask(url, 'create table t (v int); insert into t values (7)');
    await db.pause();
    await expect(ask(url, 'select 1')).rejects.toThrow(/ECONNREFUSED|terminat|connect/i);
    await db.resume();
    expect(await ask(url, 'select v from t')).toEqual([{ v: 7 }]);
  });
});
