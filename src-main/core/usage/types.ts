// What usage ingestion records per agent: the shapes usage.json holds and the promotion rule reads.

/**
 * One agent's successful use of one tool, per session: first and last call, and how many. An entry
 * with `sessions` is a roll-up of that many older sessions of one day (usage.json stays bounded).
 */
export type SessionUse = { first: number; last: number; calls: number; sessions?: number };
export type ToolUsage = Record<string, SessionUse>;
/** tool → session key → use */
export type AgentUsage = Record<string, ToolUsage>;
