// A compact way to write the demo catalog: one line of parameter spec per parameter.
import type { Tool } from '@modelcontextprotocol/client';

/**
 * Parameter spec: `"<type>[!] <description>"` where type is s (string), i (integer), n (number),
 * b (boolean), a (array of strings), d (date-time string) or e(a|b|c) (enum); `!` marks it required.
 */
export type ParamSpec = Record<string, string>;
export type Hints = { ro?: boolean; destructive?: boolean; idempotent?: boolean; openWorld?: boolean };

function property(spec: string): { schema: Record<string, unknown>; required: boolean } {
  const m = /^(e\([^)]*\)|[sinbad])(!?)\s+(.*)$/.exec(spec);
  if (!m) throw new Error(`bad demo parameter spec: ${spec}`);
  const [, type, bang, description] = m as unknown as [string, string, string, string];
  let schema: Record<string, unknown>;
  if (type.startsWith('e(')) schema = { type: 'string', enum: type.slice(2, -1).split('|') };
  else if (type === 's') schema = { type: 'string' };
  else if (type === 'i') schema = { type: 'integer' };
  else if (type === 'n') schema = { type: 'number' };
  else if (type === 'b') schema = { type: 'boolean' };
  else if (type === 'd') schema = { type: 'string', format: 'date-time' };
  else schema = { type: 'array', items: { type: 'string' } };
  return { schema: { ...schema, description }, required: bang === '!' };
}

export function tool(name: string, description: string, params: ParamSpec, hints: Hints = {}): Tool {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [key, spec] of Object.entries(params)) {
    const p = property(spec);
    properties[key] = p.schema;
    if (p.required) required.push(key);
  }
  const title = name
    .split('_')
    .slice(1)
    .map((w, i) => (i === 0 ? w[0]!.toUpperCase() + w.slice(1) : w))
    .join(' ');
  return {
    name,
    title,
    description,
    inputSchema: {
      type: 'object',
      properties: properties as Tool['inputSchema']['properties'],
      ...(required.length ? { required } : {}),
      additionalProperties: false,
    },
    annotations: {
      readOnlyHint: hints.ro === true,
      ...(hints.ro ? {} : { destructiveHint: hints.destructive === true }),
      ...(hints.idempotent !== undefined ? { idempotentHint: hints.idempotent } : {}),
      openWorldHint: hints.openWorld ?? false,
    },
  };
}
