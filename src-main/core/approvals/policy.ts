// The approval rule, as a pure function (docs/guide/approvals.md): a tool not marked read-only asks on its
// first call per agent; a grant holds across demotion and re-promotion, but not across a rewritten
// definition, since a tool changed to mislead the model must be looked at again.
import type { ApprovalMode } from '../config/schema.js';

export type ApprovalVerdict = { kind: 'run' } | { kind: 'ask'; withdrawn: boolean } | { kind: 'refuse'; message: string };

export function decideApproval(
  mode: ApprovalMode,
  tool: { name: string; readOnly: boolean; hash: string },
  grant: { hash: string } | undefined,
): ApprovalVerdict {
  if (tool.readOnly) return { kind: 'run' };
  if (mode === 'allow') return { kind: 'run' };
  if (mode === 'read-only') {
    return {
      kind: 'refuse',
      message: `${tool.name} is not read-only, and this agent may only run read-only tools. Ask the user to change the agent's approvals setting if it should.`,
    };
  }
  if (grant && grant.hash === tool.hash) return { kind: 'run' };
  return { kind: 'ask', withdrawn: grant !== undefined };
}
