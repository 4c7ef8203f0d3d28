// The shapes of the JSON state files, checked on load. A file that parses but has the wrong shape
// (`"tools": {"x": null}`, `"approvals": null`, `"cursors": 5`) would otherwise be accepted and break
// promotion, calls or the sweep later, far from the cause; checked here, it is moved aside with a
// warning naming it and rebuilt (readJsonSafe). Objects are loose: fields added later pass through.
import { z } from 'zod';

const record = <T extends z.ZodType>(v: T) => z.record(z.string(), v);
const ms = z.number().finite();

export const toolStateSchema = z.looseObject({
  vendor: z.string(),
  promotedBy: z.enum(['agent', 'user', 'usage', 'pin']),
  promotedAt: ms,
  lastUsedAt: ms.nullable().optional(),
  pinned: z.enum(['config', 'file', 'seed']).optional(),
});

/** stateDir/agents/<id>.json */
export const agentStateSchema = z.looseObject({
  tools: record(toolStateSchema),
  demotedAt: record(ms).optional(),
  approvals: record(z.looseObject({ hash: z.string(), at: ms })).optional(),
});

const cursorSchema = z.looseObject({ offset: z.number().int().nonnegative(), ino: z.number() });

/** One session's use of a tool (usagePromotion.ts SessionUse); `sessions` on a per-day roll-up. */
const sessionUseSchema = z.looseObject({ first: z.number(), last: z.number(), calls: z.number(), sessions: z.number().optional() });

/** stateDir/usage.json: the containers the store indexes into must be objects of the right kind. */
export const usageFileSchema = z.looseObject({
  version: z.literal(1),
  cursors: record(cursorSchema).optional(),
  pending: record(z.looseObject({})).optional(),
  gapSessions: record(z.looseObject({})).optional(),
  runs: record(z.array(z.looseObject({ first: z.number(), last: z.number() }))).optional(),
  agents: record(record(record(sessionUseSchema))).optional(),
  tallies: record(record(z.looseObject({ ok: z.number(), failed: z.number() }))).optional(),
  searches: record(z.number()).optional(),
  lastUsed: record(record(z.number())).optional(),
  daily: record(record(z.looseObject({ calls: z.number(), searches: z.number() }))).optional(),
});

/** stateDir/pin-files-seen.json */
export const seenFilesSchema = record(z.number());

/** A type guard for readJsonSafe from a schema. */
export function fits<T>(schema: z.ZodType<T>): (v: unknown) => v is T {
  return (v: unknown): v is T => schema.safeParse(v).success;
}
