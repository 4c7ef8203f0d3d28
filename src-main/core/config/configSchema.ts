// The config file's contract, as data: one zod schema that validates the file (validate.ts turns its
// first issue into a sentence naming the field) and is published as config.schema.json for editors.
// Each field's `error` is the reason the sentence gives ("must be a whole number from 1 to 500").
import { z } from 'zod';
import { closest } from '../suggest.js';
import { maskUrl } from '../redact.js';
import { CONFIG_VERSION } from './migrate.js';

/** Vendor slugs become name prefixes (`vendor__tool`), so keep them short and unambiguous. */
export const VENDOR_PATTERN = /^[a-z0-9][a-z0-9-]{0,31}$/;
/** Bearer tokens go in a header: printable, no spaces, and long enough not to be guessed. */
const AGENT_TOKEN_PATTERN = /^[A-Za-z0-9._~+/=_-]{16,256}$/;
const AGENT_TOKEN_HINT = 'must be 16 to 256 letters, digits or ._~+/=_- (run `mws agent token <id>` to generate one)';
const AGENT_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,47}$/;

/** Issues carrying this param are reported without the value (it is empty, or shown in the reason). */
export const HIDE_INPUT = { hideInput: true } as const;

/** Only loopback addresses may be listened on: the proxy holds every tool the user connected. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

// Field builders: each type carries the reason a refusal gives.
const str = () => z.string({ error: 'must be a string' });
const nonEmpty = () => str().refine((s) => s.trim() !== '', { error: 'must not be empty', params: HIDE_INPUT });
const pattern = (re: RegExp, hint: string) => str().regex(re, { error: hint });
const int = (min: number, max: number) => {
  const reason = `must be a whole number from ${min} to ${max}`;
  return z.number({ error: reason }).int({ error: reason }).min(min, { error: reason }).max(max, { error: reason });
};
const bool = () => z.boolean({ error: 'must be true or false' });
const strArray = () => z.array(nonEmpty(), { error: 'must be an array of strings' });
const strRecord = () => z.record(z.string(), str(), { error: 'must be an object of strings' });
/** A `${secret:NAME}` that is not well formed would be sent as it is: refused instead. */
const BAD_SECRET_REF = /\$\{secret:(?![A-Za-z0-9._:/-]{1,200}\})/;
const SECRET_REF_HINT = 'has a malformed ${secret:NAME} reference (NAME: 1 to 200 letters, digits or . _ - / :)';
/** Header or env values: plain strings, or references `${secret:NAME}`, `${input:ID}`, `${env:NAME}` resolved when connecting. */
const valueRecord = (what: string) =>
  z
    .record(z.string(), str().refine((v) => !BAD_SECRET_REF.test(v), { error: SECRET_REF_HINT, params: HIDE_INPUT }), { error: 'must be an object of strings' })
    .meta({ description: `${what} A value may be, or contain, \${secret:NAME} (kept in the secret store, not in this file), \${input:ID} (a value you fill in with \`mws upstream set\`) or \${env:NAME} (mws's own environment variable).` });
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.map((x) => `"${x}"`).join(', ')}` });
/** An object that names its own fields when it meets one it does not know. */
const fields = <S extends z.ZodRawShape>(shape: S, what = 'must be an object') =>
  z.strictObject(shape, {
    error: (iss) => {
      if (iss.code !== 'unrecognized_keys') return what;
      const near = closest(String(iss.keys[0] ?? ''), Object.keys(shape));
      return `is not a known field${near ? ` (did you mean "${near}"?)` : ''}; known fields here: ${Object.keys(shape).join(', ')}`;
    },
  });

/** A pre-registered OAuth client and what to ask for; without it, the client registers itself (CIMD or RFC 7591). */
const oauthUpstream = fields({
  clientId: nonEmpty().optional().meta({ description: 'A client ID the server\'s authorization server issued to you (skips dynamic registration).' }),
  clientSecret: nonEmpty().optional().meta({ description: 'That client\'s secret, when it has one.' }),
  scope: nonEmpty().optional().meta({ description: 'Scopes to ask for (space-separated); otherwise those the server names.' }),
  clientMetadataUrl: nonEmpty().optional().meta({ description: 'An https URL of a client ID metadata document to use as the client ID where the server supports it.' }),
});
const httpUpstream = fields({
  url: nonEmpty().superRefine((url, ctx) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return ctx.addIssue({ code: 'custom', message: 'must be an absolute http(s) URL', input: url });
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') ctx.addIssue({ code: 'custom', message: 'must use http or https', input: url });
    else if (parsed.username || parsed.password) {
      // Shown as given, a password in the URL would end up in logs and the window.
      ctx.addIssue({ code: 'custom', message: 'must not carry a user name or password (user:pass@); put the credential in "headers" instead, e.g. {"Authorization": "Bearer …"}', input: maskUrl(url) });
    }
  }).meta({ description: 'The MCP server\'s Streamable HTTP (or SSE) endpoint, e.g. http://127.0.0.1:4483/mcp.' }),
  headers: valueRecord('Headers sent with every request, e.g. {"Authorization": "${secret:upstreams.github.headers.Authorization}"}.').optional(),
  bearerTokenEnvVar: pattern(ENV_NAME, 'must be an environment variable name (letters, digits and _, not starting with a digit)')
    .optional()
    .meta({ description: 'Send "Authorization: Bearer $VAR" with VAR read from mws\'s environment when connecting (Codex\'s bearer_token_env_var). Unset: the upstream says it needs a value.' }),
  enabled: bool().optional().meta({ description: 'false: the upstream is kept but turned off (not started, its tools out of every list and search).' }),
  transport: oneOf(['auto', 'streamable-http', 'sse']).optional().meta({ description: 'How to reach it: "auto" (Streamable HTTP, then the old HTTP+SSE), or only one of them.' }),
  oauth: z
    .union([z.literal(false), oauthUpstream], { error: 'must be false (never sign in) or an object with clientId, clientSecret, scope, clientMetadataUrl' })
    .optional()
    .meta({ description: 'OAuth 2.1 sign-in to this server (used when it answers 401): a pre-registered client, the scope to ask for, or false to never sign in.' }),
});
const stdioUpstream = fields({
  command: nonEmpty().meta({ description: 'The program that starts the server (npx, uvx, a full path…).' }),
  args: strArray().optional(),
  env: valueRecord('Environment variables for the server.').optional(),
  envFile: nonEmpty()
    .refine((f) => f.startsWith('/') || f.startsWith('~') || /^[A-Za-z]:[\\/]/.test(f) || f.startsWith('\\\\'), { error: 'must be an absolute path (or start with ~/); `mws import` writes it so' })
    .optional()
    .meta({ description: 'A dotenv file read each time the server starts; "env" wins over it.' }),
  cwd: nonEmpty().optional(),
  enabled: bool().optional().meta({ description: 'false: the upstream is kept but turned off (not started, its tools out of every list and search).' }),
});
const builtinUpstream = fields({ builtin: oneOf(['demo']), enabled: bool().optional() });

/**
 * An upstream is told apart by the key it has, in this order: `url` (HTTP), `command` (stdio),
 * `builtin`. validate.ts reports the branch of the first key present.
 */
export const UPSTREAM_KEYS = ['url', 'command', 'builtin'] as const;
export const upstreamSchema = z.union([httpUpstream, stdioUpstream, builtinUpstream], {
  error: (iss) => (typeof iss.input === 'object' && iss.input !== null && !Array.isArray(iss.input) ? 'needs "url" for an HTTP server or "command" for a stdio server' : 'must be an object with "url" (HTTP) or "command" (stdio)'),
});

const agentSchema = fields({
  id: pattern(AGENT_ID_PATTERN, 'must be a slug: lowercase letters, digits and dashes, starting with a letter or digit'),
  name: nonEmpty().optional(),
  cap: int(1, 500).optional().meta({ description: 'How many tools the agent lists at most.' }),
  idleWindowDays: int(1, 3650).optional().meta({ description: 'A tool unused for this many days leaves the list.' }),
  approvals: oneOf(['ask', 'allow', 'read-only']).optional(),
  pins: strArray().optional(),
  token: pattern(AGENT_TOKEN_PATTERN, AGENT_TOKEN_HINT).optional().meta({ description: 'When set, the agent\'s endpoint needs Authorization: Bearer <token>.' }),
});

const days = () => int(1, 3650);

export const configFileSchema = fields({
  $schema: str().optional(),
  version: z
    .number({ error: `must be a whole number from 1 to ${CONFIG_VERSION}` })
    .int({ error: `must be a whole number from 1 to ${CONFIG_VERSION}` })
    .min(1, { error: `must be a whole number from 1 to ${CONFIG_VERSION}` })
    .max(CONFIG_VERSION, { error: `is newer than this mws understands (up to ${CONFIG_VERSION}); update mws, or write ${CONFIG_VERSION}` })
    .optional()
    .meta({ description: 'The config format\'s version; an older file is migrated when it is read.' }),
  upstream: upstreamSchema.optional().meta({ description: 'One upstream whose tools keep their own names (instead of "upstreams").' }),
  upstreams: z
    .record(pattern(VENDOR_PATTERN, 'has a key that is not a vendor slug (lowercase letters, digits and dashes, up to 32)'), upstreamSchema, { error: 'must be an object keyed by vendor slug' })
    .optional()
    .meta({ description: 'MCP servers keyed by vendor slug; their tools are named vendor__tool.' }),
  listen: fields({
    host: nonEmpty().refine(isLoopbackHost, { error: 'must be a loopback address (127.0.0.1, ::1 or localhost); the proxy never listens on a network' }).optional(),
    port: int(0, 65535).optional(),
  }).optional(),
  stateDir: nonEmpty().optional(),
  serverName: pattern(/^[A-Za-z0-9_-]{1,64}$/, 'must be letters, digits, "_" or "-"').optional(),
  backendHints: strRecord().optional(),
  pins: strArray().optional(),
  pinFiles: strArray().optional(),
  promote: fields({
    minSessions: int(1, 1000).optional(),
    minCalls: int(1, 100_000).optional(),
    windowDays: days().optional(),
    keepDays: days().optional(),
    pinDecayDays: days().optional(),
  }).optional(),
  transcripts: z
    .array(fields({ type: oneOf(['claude-code']), root: nonEmpty(), agent: pattern(AGENT_ID_PATTERN, 'must be an agent id').optional() }), { error: 'must be an array' })
    .optional(),
  timeouts: fields({
    listMs: int(50, 600_000).optional(),
    connectMs: int(100, 3_600_000).optional(),
    callMs: int(50, 86_400_000).optional(),
    catalogTtlMs: int(0, 86_400_000).optional(),
    approvalMs: int(100, 86_400_000).optional(),
    approvalAnswerMs: int(100, 86_400_000).optional().meta({ description: 'A call waiting for approval answers its client after this long (clients give up after about 60 s), saying it waits for the user; its retry after the grant runs at once.' }),
  }).optional(),
  maxResultBytes: int(1024, 1024 * 1024 * 1024).optional(),
  compactDescriptions: bool().optional(),
  searchAliases: z.record(z.string(), strArray(), { error: 'must be an object of word → array of words' }).optional(),
  search: fields({
    learn: bool().optional(),
    shareLearning: bool()
      .optional()
      .meta({ description: 'Agents learn from each other\'s searches. Default: true while no agent has a token, false once one has; even when true, an agent without a token never teaches one with a token (nor the other way).' }),
  }).optional(),
  desktop: fields({ notifyDemotions: bool().optional(), notifyUpstreams: bool().optional(), notifyApprovals: bool().optional(), startAtLogin: bool().optional() }).optional(),
  agents: z.array(agentSchema, { error: 'must be an array of agents' }).optional(),
  defaultAgent: bool().optional().meta({ description: 'false: /mcp (the default agent) is not served.' }),
  uiSessions: fields({ idleMinutes: int(1, 7 * 24 * 60).optional(), maxHours: int(1, 24 * 90).optional() }).optional(),
  activity: fields({
    recordArguments: bool().optional().meta({ description: 'true: the activity log (calls.jsonl) also keeps each call\'s arguments and the start of its result. Off by default: the log may be shared when reporting a problem.' }),
    maxFileMB: int(1, 4096).optional().meta({ description: 'calls.jsonl is rotated to calls.1.jsonl past this size, so the log stays under about twice it.' }),
  }).optional(),
  listChanges: fields({
    quietMinutes: int(0, 24 * 60).optional().meta({ description: 'Scheduled sweeps and usage promotions change an agent\'s list only after it sent nothing for this long, so a running conversation keeps its prompt cache (0: at once). The agent\'s and the user\'s own promote/demote are always at once.' }),
  }).optional(),
});

/** The file as written, checked: every field optional, nothing filled in yet. */
export type ConfigFile = z.infer<typeof configFileSchema>;
