// The working-set commands: promote, pin and demote by hand, the sweep (run or previewed), the report,
// approvals, and pausing the proxy or demotion.
import { MwsError } from '../../core/errors.js';
import { CONFIG, JSON_OUT, AGENT, ONE_AGENT, DEMO, str, flag, common, type Spec } from '../spec.js';

export const SETS: Record<string, Spec> = {
  promote: {
    summary: "put a tool in an agent's working set",
    usage: ['mws promote TOOL [--agent ID]'],
    options: {
      config: CONFIG,
      agent: AGENT,
      json: JSON_OUT,
      demo: DEMO,
      'dry-run': { type: 'boolean', help: '(moved: usage promotion is `mws cycle --dry-run`)' },
    },
    positionals: 1,
    run: async (io, v, pos) => {
      if (!pos[0]) {
        throw new MwsError(
          'usage',
          "mws promote needs a tool name: `mws promote TOOL --agent ID` puts it in that agent's working set. To run usage promotion and the sweep now, use `mws cycle` (`mws cycle --dry-run` only shows the decisions).",
        );
      }
      return (await import('../commands/workingSet.js')).runPromote(io, { ...common(v), tool: pos[0] });
    },
  },
  pin: {
    summary: "keep a tool in an agent's list: the sweep never demotes it",
    usage: ['mws pin TOOL --agent ID'],
    options: { config: CONFIG, agent: AGENT, json: JSON_OUT },
    positionals: 1,
    run: async (io, v, pos) => (await import('../commands/workingSet.js')).runPin(io, { ...common(v), tool: pos[0], pinned: true }),
  },
  unpin: {
    summary: 'take the pin off a tool: it stays listed until the sweep finds it idle',
    usage: ['mws unpin TOOL --agent ID'],
    options: { config: CONFIG, agent: AGENT, json: JSON_OUT },
    positionals: 1,
    run: async (io, v, pos) => (await import('../commands/workingSet.js')).runPin(io, { ...common(v), tool: pos[0], pinned: false }),
  },
  demote: {
    summary: "take a tool out of an agent's working set (search still reaches it)",
    usage: ['mws demote TOOL [--agent ID]'],
    options: { config: CONFIG, agent: AGENT, json: JSON_OUT, demo: DEMO },
    positionals: 1,
    run: async (io, v, pos) => (await import('../commands/workingSet.js')).runDemote(io, { ...common(v), tool: pos[0] }),
  },
  cycle: {
    summary: 'usage promotion and the sweep now: the decision table, applied unless --dry-run',
    usage: ['mws cycle [--dry-run] [--agent ID] [--json]'],
    options: {
      config: CONFIG,
      agent: ONE_AGENT,
      json: JSON_OUT,
      demo: DEMO,
      'dry-run': { type: 'boolean', help: 'show the decisions, change nothing' },
    },
    positionals: 0,
    run: async (io, v) => (await import('../commands/workingSet.js')).runCycle(io, { ...common(v), dryRun: flag(v['dry-run']) }),
  },
  sweep: {
    summary: 'demote idle tools now (with --dry-run: what a sweep would demote at a given time)',
    usage: [
      'mws sweep [--agent ID] [--json]                    sweep now (runs usage promotion too, as `mws cycle`)',
      'mws sweep --dry-run [--now ISO-TIME] [--agent ID]   only show what a sweep then would demote',
    ],
    options: {
      config: CONFIG,
      agent: ONE_AGENT,
      json: JSON_OUT,
      demo: DEMO,
      'dry-run': { type: 'boolean', help: 'show the decisions, change nothing' },
      now: { type: 'string', arg: 'ISO', help: 'with --dry-run: the time to sweep at, e.g. 2026-12-24T09:00:00Z' },
    },
    positionals: 0,
    run: async (io, v) =>
      (await import('../commands/workingSet.js')).runSweep(io, { ...common(v), dryRun: flag(v['dry-run']), now: str(v.now) }),
  },
  report: {
    summary: 'listed tools, context cost, calls, searches and history per agent',
    usage: ['mws report [--agent ID] [--json]'],
    options: { config: CONFIG, agent: ONE_AGENT, json: JSON_OUT, demo: DEMO },
    positionals: 0,
    run: async (io, v) => (await import('../commands/report.js')).runReport(io, common(v)),
  },
  approve: {
    summary: 'answer calls waiting for approval, and list or withdraw standing grants',
    usage: [
      'mws approve                            calls waiting for approval',
      'mws approve --list [--agent ID]        waiting calls and the tools each agent may run without asking',
      'mws approve TOOL --agent ID [--once]   allow it (always, or just the waiting calls with --once)',
      'mws approve TOOL --agent ID --deny     deny its waiting calls',
      'mws approve TOOL --agent ID --revoke   withdraw a standing grant: it asks again next time',
    ],
    options: {
      config: CONFIG,
      agent: AGENT,
      json: JSON_OUT,
      demo: DEMO,
      list: { type: 'boolean', help: 'also list standing grants' },
      once: { type: 'boolean', help: 'allow only the calls waiting now' },
      deny: { type: 'boolean', help: 'deny the waiting calls' },
      revoke: { type: 'boolean', help: 'withdraw the standing grant' },
    },
    positionals: 1,
    run: async (io, v, pos) =>
      (await import('../commands/approve.js')).runApprove(io, {
        ...common(v),
        tool: pos[0],
        list: flag(v.list),
        once: flag(v.once),
        deny: flag(v.deny),
        revoke: flag(v.revoke),
      }),
  },
  pause: {
    summary: 'pause the running proxy (clients are told to wait), or only automatic demotion',
    usage: ['mws pause [--demotion]'],
    options: { config: CONFIG, demotion: { type: 'boolean', help: 'pause only automatic demotion; the proxy keeps serving' } },
    positionals: 0,
    run: async (io, v) =>
      (await import('../commands/pause.js')).runPause(io, { config: str(v.config), demotion: flag(v.demotion), paused: true }),
  },
  resume: {
    summary: 'resume the proxy, or automatic demotion',
    usage: ['mws resume [--demotion]'],
    options: { config: CONFIG, demotion: { type: 'boolean', help: 'resume only automatic demotion' } },
    positionals: 0,
    run: async (io, v) =>
      (await import('../commands/pause.js')).runPause(io, { config: str(v.config), demotion: flag(v.demotion), paused: false }),
  },
};
