// The call_tool meta-tool: runs any tool by name, listed or not, through the same path as a direct
// call; dryRun previews a tool that is not read-only. The router lends it the steps a call takes.
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { ToolEntry } from '../toolbox/toolbox.js';
import { isMetaTool } from '../toolbox/reservedNames.js';
import { toolJson } from '../toolResults.js';
import type { CallContext, MetaHandler } from './handler.js';
import { missingName, toolError } from './errors.js';

export const CALL_TOOL: Tool = {
  name: 'call_tool',
  description:
    'Run any tool by name, listed or not, exactly as calling it directly would. Use it for a tool found ' +
    'with search_tools. dryRun: true runs read-only tools and previews any other without running it.',
  inputSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'Tool name as search_tools shows it' },
      arguments: { type: 'object', description: "The tool's arguments, per its input schema" },
      dryRun: { type: 'boolean', description: 'Preview instead of running a tool that is not read-only' },
    },
    required: ['name'],
  },
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
};

export type CallToolSteps = {
  /** The entry for a name (waiting for an upstream still starting), or undefined. */
  resolve(name: string): Promise<ToolEntry | undefined>;
  /** The sentence for a name no upstream lists. */
  unknownToolMessage(name: string): string;
  /** What is wrong with the arguments, or undefined. */
  check(entry: ToolEntry, args: Record<string, unknown> | undefined): string | undefined;
  /** What the approval rule says of this call now (dryRun tells it rather than "would run"). */
  verdict?(agentId: string, entry: ToolEntry): { kind: 'run' } | { kind: 'ask' } | { kind: 'refuse'; message: string };
  /** Notes a call refused here, before it ran (unknown name, arguments not an object), with why. */
  refused?(agentId: string, name: string, reason: string, ctx: CallContext): void;
  /** Runs the call exactly as a direct call would. */
  forward(agentId: string, entry: ToolEntry, args: Record<string, unknown> | undefined, ctx: CallContext): Promise<CallToolResult>;
};

export function callToolHandler(steps: CallToolSteps): MetaHandler {
  return async (agentId, args, ctx) => {
    const target = typeof args.name === 'string' ? args.name : '';
    if (!target) return missingName('call_tool', 'the tool to run, as search_tools shows it');
    if (isMetaTool(target)) return toolError(`${target} is a meta-tool: call it directly.`);
    const refuse = (name: string, reason: string) => {
      steps.refused?.(agentId, name, reason, { ...ctx, via: 'call_tool' });
      return toolError(reason);
    };
    const entry = await steps.resolve(target);
    if (!entry) return refuse(target, steps.unknownToolMessage(target));
    const inner = args.arguments;
    if (inner !== undefined && (typeof inner !== 'object' || inner === null || Array.isArray(inner))) {
      return refuse(entry.name, 'call_tool "arguments" must be an object of the tool\'s parameters.');
    }
    if (args.dryRun === true && !entry.readOnly) {
      const problem = steps.check(entry, inner as Record<string, unknown> | undefined);
      if (problem) return toolError(problem);
      // The preview says what the real call would meet: a read-only agent's refusal is not "would run".
      const verdict = steps.verdict?.(agentId, entry) ?? { kind: 'run' };
      if (verdict.kind === 'refuse') {
        return toolJson({ dryRun: true, tool: entry.name, wouldRun: false, arguments: inner ?? {}, note: verdict.message });
      }
      const ask = verdict.kind === 'ask';
      return toolJson({
        dryRun: true,
        tool: entry.name,
        wouldRun: true,
        ...(ask ? { needsApproval: true } : {}),
        arguments: inner ?? {},
        note: `${entry.name} is not read-only, so it was not run. Call again without dryRun to run it${ask ? ' (the user is asked to approve it first)' : ''}.`,
      });
    }
    return steps.forward(agentId, entry, inner as Record<string, unknown> | undefined, { ...ctx, via: 'call_tool' });
  };
}
