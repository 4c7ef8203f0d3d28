// Plausible answers for demo tool calls: reads return small made-up records, writes return ids.
import type { CallToolResult } from '@modelcontextprotocol/client';

type Args = Record<string, unknown>;

const PEOPLE = ['alice@example.com', 'bob@example.com', 'carol@example.com'];

function id(prefix: string, args: Args): string {
  let h = 0;
  for (const ch of JSON.stringify(args)) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return `${prefix}_${h.toString(36)}`;
}

function text(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }] };
}

export function demoAnswer(name: string, args: Args): CallToolResult {
  const [backend = '', verb = ''] = name.split('_');
  const limit = typeof args.limit === 'number' ? Math.min(args.limit, 3) : 3;
  if (['search', 'list', 'find'].includes(verb)) {
    const items = Array.from({ length: limit }, (_, i) => ({
      id: id(backend, { ...args, i }),
      title: `${backend} item ${i + 1}${typeof args.query === 'string' ? ` matching "${args.query}"` : ''}`,
      owner: PEOPLE[i % PEOPLE.length],
    }));
    return text({ results: items, nextPageToken: null });
  }
  if (verb === 'get' || verb === 'read' || verb === 'blame' || verb === 'export') {
    return text({
      id: args.messageId ?? args.eventId ?? args.fileId ?? id(backend, args),
      content: `Sample ${backend} content for ${name}.`,
    });
  }
  if (verb === 'take') return { content: [{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] };
  if (verb === 'delete' || verb === 'close')
    return text(`Deleted ${String(args.messageId ?? args.eventId ?? args.fileId ?? args.tabId ?? 'the item')}.`);
  return text({ ok: true, id: id(backend, args) });
}
