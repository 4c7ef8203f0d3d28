// The config's fixed names, apart from its schema so a module that needs only a name does not build the schema.

export const DEFAULT_PORT = 4484;
export const DEFAULT_AGENT_ID = 'default';
/** The vendor key the seed-style single `upstream` is stored under. */
export const SINGLE_UPSTREAM_KEY = 'upstream';
