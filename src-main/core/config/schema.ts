// The running config's types: what configSchema.ts's schema gives after validation (`z.output`), every
// field filled, defaults applied. Declared there once; named here for the modules that take a part.
import type { z } from 'zod';
import type { configFileSchema, configSchemaWith } from './configSchema.js';

export { DEFAULT_AGENT_ID, DEFAULT_PORT, SINGLE_UPSTREAM_KEY } from './names.js';

/** The state folder's default depends on the machine, so validateConfig fills it in (configSchema.ts). */
export type Config = Omit<z.output<ReturnType<typeof configSchemaWith>>, 'stateDir'> & { stateDir: string };

/** The file as a person writes it: every field optional (what config.schema.json describes). */
export type ConfigFileInput = z.input<typeof configFileSchema>;

export type UpstreamConfig = Config['upstreams'][string];
export type HttpUpstreamConfig = Extract<UpstreamConfig, { kind: 'http' }>;
export type StdioUpstreamConfig = Extract<UpstreamConfig, { kind: 'stdio' }>;
export type BuiltinUpstreamConfig = Extract<UpstreamConfig, { kind: 'builtin' }>;
/** `auto`: Streamable HTTP first, then the old HTTP+SSE transport. */
export type HttpTransportChoice = NonNullable<HttpUpstreamConfig['transport']>;
/** A pre-registered OAuth client, the scope to ask for, and a client ID metadata document URL. */
export type OAuthUpstreamConfig = Exclude<NonNullable<HttpUpstreamConfig['oauth']>, false>;

export type AgentConfig = Config['agents'][number];
export type ApprovalMode = AgentConfig['approvals'];
export type UiSessionSettings = Config['uiSessions'];
export type PromoteSettings = Config['promote'];
export type TranscriptSource = Config['transcripts'][number];
export type Timeouts = Config['timeouts'];
