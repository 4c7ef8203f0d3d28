// The meta-tools' names, reserved in every toolbox: an upstream tool of the same name is never listed
// under it. The meta-tools themselves live in core/metaTools/.

export const META_TOOL_NAMES = ['search_tools', 'call_tool', 'promote', 'demote'] as const;
export type MetaToolName = (typeof META_TOOL_NAMES)[number];

export function isMetaTool(name: string): name is MetaToolName {
  return (META_TOOL_NAMES as readonly string[]).includes(name);
}
