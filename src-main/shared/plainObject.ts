// A JSON object as opposed to an array, null or a primitive: the shape check that parsers of
// configs, tool lists, schemas and JSON-RPC answers all start from.
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
