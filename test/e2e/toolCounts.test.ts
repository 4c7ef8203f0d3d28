// One toolbox, one count, the same words everywhere (once the window, the tray and the report
// disagreed: 67 / 71 / 84 / 88 tools). 67 and 84 were the toolbox (the demo; the demo and everything's 17) as the window and
// the tray counted it; 71 and 88 were the same toolboxes in `mws report`, which added the 4 meta-tools.
// The report also counted a tool whose upstream was off as "in the working set" while the window did
// not. Here a real `mws serve` with three upstreams (one on, one turned off after its tool was promoted,
// one off from the start) is read through every place a count is shown: `mws report`, the tray's menu
// built from the same status, an agent's tools/list and search_tools, and the window at 1280 and 800 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { ControlApi } from '../../src-main/core/control/api.js';
import { buildTrayMenu } from '../../src-main/desktop/trayMenu.js';
import { runMws, startHttpFixture, stdioFixture, type HttpFixture } from '../helpers/processes.js';
import { connectClient, textOf } from '../helpers/app.js';
import { serveWithWindow, type WindowServe } from '../helpers/windowServe.js';
import { until } from '../helpers/wait.js';

let w: WindowServe;
let fixture: HttpFixture;
let api: ControlApi;

const TOOLBOX = '67 tools from 1 upstream';
const LISTED = '1 of 20 tools listed';
const UNLISTED = '1 more in the working set is not listed now (its upstream is off or gone)';

beforeAll(async () => {
  fixture = await startHttpFixture('stateless');
  w = await serveWithWindow({
    upstreams: { demo: { builtin: 'demo' }, fx: { url: fixture.url }, spare: { ...stdioFixture(), enabled: false } },
  });
  api = w.control();
  await until(async () => (await api.status({})).toolboxSize === 67 + 8, 'the demo and the fixture to list their tools', 30_000);
  await api.promote({ agent: 'default', tool: 'demo__mail_send_message' });
  await api.promote({ agent: 'default', tool: 'fx__echo' });
  await api.setUpstreamEnabled({ vendor: 'fx', enabled: false });
}, 90_000);

afterAll(async () => {
  await w?.stop();
  await fixture?.kill();
});

describe('every count of the toolbox and of a list', () => {
  it('the status, the tray, `mws report`, an agent and search_tools say the same numbers in the same words', async () => {
    const st = await api.status({});
    expect(st.toolboxSize).toBe(67);
    expect(st.agents.find((a) => a.id === 'default')?.size).toBe(1);

    const tray = buildTrayMenu(st).flatMap((m) => ('label' in m ? [m.label] : []));
    expect(tray).toContain('Upstreams: 1 of 1 upstream up · 2 off');
    expect(tray).toContain(`Toolbox: ${TOOLBOX} · 4 meta-tools`);
    expect(tray).toContain(`Default — ${LISTED}`);

    const report = await runMws(['report', '--config', w.cfg]);
    expect(report.code).toBe(0);
    expect(report.out).toContain(`Agent default (Default): ${LISTED}, idle window 21 days; ${UNLISTED}`);
    expect(report.out).toMatch(
      new RegExp(
        `listing 1 tool \\+ 4 meta-tools: [\\d,]+ tokens, against [\\d,]+ tokens for the whole toolbox, ${TOOLBOX} \\+ 4 meta-tools \\(`,
      ),
    );
    expect(report.out).not.toMatch(/\b71 tools\b/);
    // fx__echo is read-only; with its upstream off nothing says what it is, so the report does not call it "write".
    expect(report.out).toMatch(/fx__echo \(not listed upstream now\) +— /);

    const agent = await connectClient(`${w.base}/mcp`, 'auto', 'counts');
    try {
      const listed = (await agent.client.listTools()).tools.map((t) => t.name);
      expect(listed).toEqual(['search_tools', 'call_tool', 'promote', 'demote', 'demo__mail_send_message']);
      const all = textOf(await agent.client.callTool({ name: 'search_tools', arguments: {} }));
      expect((JSON.parse(all) as { total: number }).total).toBe(67);
    } finally {
      await agent.close();
    }
  });

  describe.each([1280, 800])('the window at %i px', (width) => {
    async function open(hash: string): Promise<Page> {
      const page = await w.openWindow({ width, height: 600 });
      await page.evaluate((h) => (location.hash = h), hash);
      await page.getByTestId('status').waitFor();
      return page;
    }

    it("says the header's, the agent's, the report's and the upstreams' counts as the CLI and the tray do", async () => {
      const page = await open('#/agents/default');
      try {
        expect(await page.getByTestId('status-upstreams').textContent()).toBe('1 of 1 upstream up · 2 off');
        expect(await page.getByTestId('status-toolbox').textContent()).toBe(TOOLBOX);
        expect(await page.getByTestId('status').textContent()).toMatch(/· 4 meta-tools\s*$/);
        expect(await page.getByTestId('agent-listed').textContent()).toBe(`· ${LISTED}`);
        expect(await page.getByTestId('kind-fx__echo').textContent()).toBe('—');
        expect(await page.getByTestId('kind-demo__mail_send_message').textContent()).toBe('write');

        await page.evaluate(() => (location.hash = '#/report'));
        await page.getByTestId('report-cost').waitFor();
        expect(await page.getByTestId('report-listed').textContent()).toBe(`· ${LISTED}`);
        expect(await page.getByTestId('report-cost').textContent()).toMatch(
          new RegExp(`tokens listed \\(1 tool \\+ 4 meta-tools\\) against [\\d,]+ for the whole toolbox \\(${TOOLBOX} \\+ 4 meta-tools\\)`),
        );
        expect(await page.getByTestId('report-unlisted').textContent()).toBe(`${UNLISTED}.`);

        // The upstreams' rows add up to the toolbox: an upstream turned off shows none.
        await page.evaluate(() => (location.hash = '#/upstreams'));
        await page.getByTestId('tools-demo').waitFor();
        const rows = await Promise.all(
          ['demo', 'fx', 'spare'].map(async (v) => Number(await page.getByTestId(`tools-${v}`).textContent())),
        );
        expect(rows).toEqual([67, 0, 0]);
      } finally {
        await page.close();
      }
    });
  });
});
