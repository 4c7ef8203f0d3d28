// The SDK client one upstream connection talks through, set up the way a proxy needs it: every
// capability a caller may have declared, tool list changes heard but listed by us, and responses
// delivered in wire order after the notifications before them.
import type { Client, Transport } from '@modelcontextprotocol/client';
import { LIST_MAX_PAGES } from './toolList.js';

/** The SDK's debounce of an upstream's tools/list_changed before it re-lists (its default is 300 ms). */
export const LIST_CHANGED_DEBOUNCE_MS = 30;

/** Notifications from an upstream that concern every client, not one call. */
const BROADCAST_NOTIFICATIONS = [
  'notifications/resources/list_changed',
  'notifications/resources/updated',
  'notifications/prompts/list_changed',
] as const;

export type UpstreamClientOptions = {
  name: string;
  /** The protocol era to speak: probed (`auto`), the 2025 handshake (`legacy`), or one revision. */
  era: 'auto' | 'legacy' | { pin: string };
  probeMs: number;
  onToolsChanged: () => void;
  onNotification: (method: string, params: Record<string, unknown> | undefined) => void;
};

export function upstreamClient(ClientClass: typeof Client, o: UpstreamClientOptions): Client {
  const client = new ClientClass(
    { name: o.name, version: '0.1.0' },
    {
      listMaxPages: LIST_MAX_PAGES,
      // Declared so upstreams offer the tools that need them; each request is routed to the
      // client whose call caused it, and refused with a sentence when that client lacks it.
      capabilities: { sampling: {}, elicitation: { form: {}, url: {} }, roots: { listChanged: true } },
      versionNegotiation: { mode: o.era, probe: { timeoutMs: o.probeMs } },
      listChanged: {
        tools: {
          // A burst of notifications still coalesces; clients hear of a change within tens of ms, not 300.
          debounceMs: LIST_CHANGED_DEBOUNCE_MS,
          // The SDK's own re-list parses every tool with zod and caches the whole list: listed here instead.
          // (Configured at all so that a 2026-07-28 upstream is asked for list_changed on subscriptions/listen.)
          autoRefresh: false,
          onChanged: o.onToolsChanged,
        },
      },
    },
  );
  for (const method of BROADCAST_NOTIFICATIONS) {
    client.setNotificationHandler(method, (n: { params?: Record<string, unknown> }) => o.onNotification(method, n.params));
  }
  return client;
}

/**
 * The SDK dispatches notifications a microtask later but responses at once, and forgets a request's
 * progress handler on its response: the last progress notification before a result was dropped.
 * Responses are delivered a microtask later too, so everything arrives in wire order.
 */
export function responsesAfterNotifications(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  transport.onmessage = (message, extra) => {
    const m = message as { method?: unknown; id?: unknown };
    if (m.method === undefined && m.id !== undefined) queueMicrotask(() => deliver(message, extra));
    else deliver(message, extra);
  };
}
