// An old HTTP+SSE upstream is found by the usual fallback (Streamable HTTP first, then SSE) and served
// through the SDK's SSE client transport; `transport: "streamable-http"` turns the fallback off.
import { afterEach, describe, expect, it } from 'vitest';
import { startSseFixture } from '../fixtures/upstreams/sse.js';
import { connectClient, startApp, textOf } from '../helpers/app.js';

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const s of stops.splice(0).reverse()) await s().catch(() => {});
});

describe('an old HTTP+SSE upstream', () => {
  it('is reached over SSE after Streamable HTTP is refused, and its tools answer', async () => {
    const f = await startSseFixture();
    stops.push(() => f.close());
    const t = await startApp({ upstreams: { old: { url: f.url } }, agents: [{ id: 'default', approvals: 'allow', pins: ['old__echo'] }] });
    stops.push(() => t.stop());
    await t.app.router.ready();
    expect(t.app.catalog.statuses()[0]).toMatchObject({ status: 'up', toolCount: 1 });
    const c = await connectClient(`${t.url}/mcp`, 'legacy');
    stops.push(() => c.close());
    expect(textOf(await c.client.callTool({ name: 'old__echo', arguments: { text: 'over sse' } }))).toBe('over sse');
    expect(f.posts()).toBeGreaterThan(0);
  });

  it('is not tried over SSE when the config says streamable-http only', async () => {
    const f = await startSseFixture();
    stops.push(() => f.close());
    const t = await startApp({ upstreams: { old: { url: f.url, transport: 'streamable-http', oauth: false } } });
    stops.push(() => t.stop());
    await t.app.router.ready();
    expect(t.app.catalog.statuses()[0]?.status).toBe('down');
    expect(f.posts()).toBe(0);
  });
});
