// One schema per ControlApi method: the arguments it takes, checked before the method runs at both
// transports (HTTP /control and Electron IPC, through dispatch.ts). The types are checked against
// api.ts, so a method added there without a schema here fails the typecheck (and test/unit/controlContracts).
// Values whose rules live in the config (a cap's range, a URL's form) are only typed here; the config
// schema refuses them with the field's own sentence when the edit is validated.
import { z } from 'zod';
import type { ControlArgs, ControlMethod } from './api.js';

const text = () => z.string();
const id = () => z.string().min(1);
const whole = () => z.number().int();
const args = <S extends z.ZodRawShape>(shape: S) => z.strictObject(shape);
const strings = () => z.record(z.string(), z.string());
const approvals = () => z.enum(['ask', 'allow', 'read-only']);

const upstreamInput = z.union(
  [
    z.strictObject({ url: text(), headers: strings().optional(), bearerTokenEnvVar: text().optional() }),
    z.strictObject({ command: text(), args: z.array(text()).optional(), env: strings().optional(), cwd: text().optional(), envFile: text().optional() }),
  ],
  { error: 'must be an upstream: {"url": …} for an HTTP server, or {"command": …, "args": […]} for a stdio one' },
);

const agentFields = { name: text().optional(), cap: z.number().optional(), idleWindowDays: z.number().optional(), approvals: approvals().optional() };

/** Each method's arguments; `satisfies` ties every entry to the method's type in api.ts. */
export const CONTROL_ARG_SCHEMAS = {
  status: args({}),
  workingSet: args({ agent: id() }),
  history: args({ agent: id(), limit: whole().min(1).optional() }),
  promote: args({ agent: id(), tool: id() }),
  demote: args({ agent: id(), tool: id() }),
  cycle: args({ dryRun: z.boolean().optional(), agents: z.array(id()).optional() }),
  sweepPreview: args({ now: text(), agents: z.array(id()).optional() }),
  pendingApprovals: args({ agent: id().optional() }),
  approve: args({ agent: id(), tool: id(), deny: z.boolean().optional(), once: z.boolean().optional(), id: text().optional() }),
  grants: args({ agent: id().optional() }),
  upstreamTools: args({ vendor: id() }),
  revokeGrant: args({ agent: id(), tool: id() }),
  search: args({ agent: id(), query: text().optional(), limit: whole().min(1).optional(), explain: z.boolean().optional() }),
  learnedWords: args({ tool: id().optional(), agent: id().optional() }),
  // A learned word is at most 24 letters (learning.ts); 100 leaves room for a phrase, not a document.
  forgetLearned: args({ tool: id(), word: id().max(100).optional() }),
  report: args({ agent: id().optional() }),
  setDemotionPaused: args({ paused: z.boolean() }),
  setProxyPaused: args({ paused: z.boolean() }),
  createAgent: args({ id: id(), ...agentFields }),
  updateAgent: args({ id: id(), ...agentFields }),
  deleteAgent: args({ id: id() }),
  pin: args({ agent: id(), tool: id(), pinned: z.boolean() }),
  clientConfigs: args({ agent: id(), masked: z.boolean().optional() }),
  upstreams: args({}),
  saveUpstream: args({ vendor: text(), upstream: upstreamInput, leaveDemo: z.boolean().optional(), replace: z.boolean().optional() }),
  removeUpstream: args({ vendor: id() }),
  testUpstream: args({ upstream: upstreamInput, vendor: text().optional() }),
  settings: args({}),
  uiLink: args({}),
  uiRevokeAll: args({}),
  agentToken: args({ agent: id() }),
  updateSettings: args({
    port: z.number().optional(),
    compactDescriptions: z.boolean().optional(),
    promote: z.strictObject({ minSessions: z.number().optional(), minCalls: z.number().optional(), windowDays: z.number().optional(), pinDecayDays: z.number().optional() }).optional(),
    desktop: z.strictObject({ notifyDemotions: z.boolean().optional(), notifyUpstreams: z.boolean().optional(), notifyApprovals: z.boolean().optional(), startAtLogin: z.boolean().optional() }).optional(),
  }),
  setUpstreamEnabled: args({ vendor: id(), enabled: z.boolean() }),
  restartUpstream: args({ vendor: id() }),
  upstreamLog: args({ vendor: id(), lines: whole().min(1).max(1000).optional() }),
  activity: args({ agent: id().optional(), limit: whole().min(1).max(1000).optional() }),
  importScan: args({ from: text().optional(), file: text().optional(), projectDir: text().optional() }),
  setUpstreamValue: args({ vendor: id(), key: id().max(200), value: z.string().min(1).max(64 * 1024) }),
  secretNames: args({}),
  migrateSecrets: args({}),
  importServers: args({ file: text(), names: z.array(text()).optional(), dryRun: z.boolean().optional(), writeClient: z.boolean().optional(), projectDir: text().optional(), agent: id().optional(), as: strings().optional() }),
  signIn: args({ vendor: id() }),
  signOut: args({ vendor: id() }),
} satisfies { [M in ControlMethod]: z.ZodType<unknown, ControlArgs<M>> };

/** The schema of a method, or undefined for a method added to api.ts without one. */
export function argSchemaOf(method: string): z.ZodType | undefined {
  return Object.hasOwn(CONTROL_ARG_SCHEMAS, method) ? (CONTROL_ARG_SCHEMAS as Record<string, z.ZodType>)[method] : undefined;
}
