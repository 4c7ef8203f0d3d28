// The working-set size gauge: each agent's member count, read at every scrape without a view of each member.
import { afterEach, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startApp, type TestApp } from '../../helpers/app.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

it("counts each agent's members, and follows promotions and demotions", async () => {
  t = await startApp({ upstreams: { demo: { builtin: 'demo' } }, agents: [{ id: 'default' }, { id: 'other' }] });
  await t.app.router.ready();
  const token = readFileSync(join(t.stateDir, 'control-token'), 'utf8').trim();
  const sizes = async () => {
    const r = await fetch(new URL('/metrics', t!.url), { headers: { authorization: `Bearer ${token}` } });
    return (await r.text()).match(/^mws_working_set_size\{.*$/gm);
  };
  const before = Number((await sizes())![0]!.split(' ').at(-1));
  await t.app.control.promote({ agent: 'default', tool: 'demo__drive_search_files' });
  expect(await sizes()).toEqual([`mws_working_set_size{agent="default"} ${before + 1}`, 'mws_working_set_size{agent="other"} 0']);
  await t.app.control.demote({ agent: 'default', tool: 'demo__drive_search_files' });
  expect(await sizes()).toEqual([`mws_working_set_size{agent="default"} ${before}`, 'mws_working_set_size{agent="other"} 0']);
});
