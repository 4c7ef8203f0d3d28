// The calls the fast path answers, one per outcome (against startHttpFixture's tools): what both the
// fast-path test and the differential test send through both request paths.
export const FAST_PATH_CALLS: Array<[label: string, method: string, params: Record<string, unknown>]> = [
  ['tools/list', 'tools/list', {}],
  ['a listed tool', 'tools/call', { name: 'f__echo', arguments: { text: 'hi' } }],
  ['an unlisted tool', 'tools/call', { name: 'f__whoami', arguments: {} }],
  ['a tool without arguments', 'tools/call', { name: 'f__whoami' }],
  ['call_tool', 'tools/call', { name: 'call_tool', arguments: { name: 'f__add', arguments: { a: 1, b: 2 } } }],
  ['refused arguments', 'tools/call', { name: 'f__add', arguments: { a: 'x' } }],
  ['an upstream JSON-RPC error', 'tools/call', { name: 'f__fail', arguments: {} }],
  ['an isError result', 'tools/call', { name: 'f__is_error', arguments: {} }],
  ['an unknown tool', 'tools/call', { name: 'nope', arguments: {} }],
  ['a not-yet-available meta-tool', 'tools/call', { name: 'promote', arguments: { name: 'f__echo' } }],
  ['search_tools', 'tools/call', { name: 'search_tools', arguments: { query: 'echo text' } }],
];
