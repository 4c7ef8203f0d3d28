// Where the fast path (proxy/fastPath.ts) meets the rest: a 2025 client's cancellation, which arrives
// as its own POST, must reach a call the fast path holds; and a call on the fast path, which cannot take
// requests, must not keep an upstream's sampling request from a caller that can.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, startApp, textOf, type TestApp, type TestClient } from '../helpers/app.js';
import { stdioFixture } from '../helpers/processes.js';
import { until } from '../helpers/wait.js';
import { PeerRouter } from '../../src-main/core/upstream/peers.js';
import type { DownstreamPeer } from '../../src-main/core/upstream/types.js';

describe('a 2025 client that gives up on a call waiting for approval', () => {
  let t: TestApp;
  let legacy: TestClient;
  beforeAll(async () => {
    t = await startApp({ upstreams: { stdio: stdioFixture() }, agents: [{ id: 'default', approvals: 'ask' }] });
    legacy = await connectClient(`${t.url}/mcp`, 'legacy');
  });
  afterAll(async () => {
    await legacy?.close().catch(() => {});
    await t?.stop();
  });

  it('takes the call out of the inbox when the client cancels it, so approving later runs nothing', async () => {
    // `toggle_extra` has no readOnlyHint: its first call waits for the user.
    const call = legacy.client.callTool({ name: 'stdio__toggle_extra', arguments: {} }, { timeout: 1_000 });
    await expect(call).rejects.toThrow(/timed out/i);
    // The SDK client sends notifications/cancelled when it times out; the waiting call must end with it.
    await until(
      async () => (await t.app.control.pendingApprovals({})).length === 0,
      'the cancelled call to leave the approvals inbox',
      20_000,
    );
  });

  it('still answers a call that nobody cancelled', async () => {
    const r = legacy.client.callTool({ name: 'stdio__toggle_extra', arguments: {} });
    await until(async () => (await t.app.control.pendingApprovals({})).length === 1, 'the call to wait for approval', 20_000);
    await t.app.control.approve({ agent: 'default', tool: 'stdio__toggle_extra' });
    expect(textOf(await r)).toMatch(/^extra=/);
  });
});

describe('the upstream side of calls in flight', () => {
  const peer = (p: Partial<DownstreamPeer>): DownstreamPeer & { got: string[] } => {
    const got: string[] = [];
    return {
      modern: false,
      capabilities: {},
      notify: async (n) => void got.push(n.method),
      request: async (r) => (got.push(r.method), { ok: true }),
      ...p,
      got,
    };
  };

  it('gives an upstream request to the call that can take it, not to a later fast-path call', () => {
    const router = new PeerRouter();
    const sdk = peer({ capabilities: { sampling: {} } });
    const fast = peer({ passive: true });
    router.enter(sdk);
    const leave = router.enter(fast);
    expect(router.pick((p) => !p.passive && !!p.capabilities?.sampling)).toBe(sdk);
    leave();
    expect(router.pick((p) => !p.passive)).toBe(sdk);
  });
});
