// The config's one declaration: a zod schema that validates the file (validate.ts turns its first issue
// into a sentence naming the field), fills in every default, turns the file's shape into the running
// one (transforms), gives the types (schema.ts: `z.output`) and is published as config.schema.json.
// Each field's `error` is the reason the sentence gives ("must be a whole number from 1 to 500"); the
// window's words (shared/errorWords.ts) read the same bounds from the refusal's data (fieldRules.ts).
// Adding a field is one line here (with its default) and its test.
import { z } from 'zod';
import { closest } from '../suggest.js';
import { maskUrl } from '../redact.js';
import { CONFIG_VERSION } from './migrate.js';
import { VENDOR_MAX_LENGTH, VENDOR_PATTERN } from '../../shared/vendorName.js';
import { isReservedName, RESERVED_NAME_WORDS } from '../../shared/reservedNames.js';
import { DEFAULT_AGENT_ID, DEFAULT_PORT, SINGLE_UPSTREAM_KEY } from './names.js';

export { DEFAULT_AGENT_ID, DEFAULT_PORT, SINGLE_UPSTREAM_KEY };

/** Per-agent rule defaults: a cap of 20 keeps a list well under the size where selection accuracy drops. */
export const DEFAULT_CAP = 20;
export const DEFAULT_IDLE_WINDOW_DAYS = 21;
/** Long enough that a conversation's turns (and a prompt cache's lifetime, ~5 min) fall inside it (workingset/quiet.ts). */
export const DEFAULT_QUIET_MINUTES = 10;
/** calls.jsonl rotates at this: ~80,000 calls at ~200 bytes each, months of use for most people. */
export const DEFAULT_ACTIVITY_MAX_FILE_MB = 16;
/** Inside the 60 s after which MCP SDK clients (and clients without progress handling) give up on a call. */
export const DEFAULT_APPROVAL_ANSWER_MS = 50_000;
/** Large enough for big file reads and screenshots; the SDK's own stdio limit is 10 MiB. */
export const DEFAULT_MAX_RESULT_BYTES = 64 * 1024 * 1024;

export { VENDOR_MAX_LENGTH, VENDOR_PATTERN };
/** An agent id is a path segment (`/mcp/<id>/mcp`) and a file name in the state folder. */
const AGENT_ID_MAX_LENGTH = 48;
/** Bearer tokens go in a header: printable, no spaces, and long enough not to be guessed. */
const AGENT_TOKEN_PATTERN = /^[A-Za-z0-9._~+/=_-]{16,256}$/;
const AGENT_TOKEN_HINT = 'must be 16 to 256 letters, digits or ._~+/=_- (run `mws agent token <id>` to generate one)';

/** Issues carrying this param are reported without the value (it is empty, or shown in the reason). */
export const HIDE_INPUT = { hideInput: true } as const;

/** A loopback address: served with no further conditions (any other needs http/exposure.ts's conditions). */
/** The sentence models that ship in resources/model/ (search.model chooses one). */
export const SEARCH_MODELS = ['all-minilm-l6-v2-int8', 'bge-small-en-int8'] as const;

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * How large a config may grow. Each bound is far past any real setup and keeps one file (or one edit
 * through /control) from holding the instance's memory and every walk over the config: the file is
 * read, validated and written whole on each edit.
 */
export const CONFIG_BOUNDS = {
  /** Any one text: a header or env value, an argument, a URL, a path. */
  textLength: 64 * 1024,
  /** A header's or an environment variable's name, a word of searchAliases or backendHints. */
  nameLength: 256,
  upstreams: 500,
  agents: 200,
  headers: 100,
  env: 500,
  args: 1000,
  /** Pins of one agent, or of the file's top-level "pins". */
  pins: 2000,
  /** pinFiles, transcripts, trustedProxies. */
  listItems: 100,
  /** Words of searchAliases and backendHints. */
  words: 10_000,
} as const;

// Field builders: each type carries the reason a refusal gives, made from the same bounds it checks.
const str = () =>
  z
    .string({ error: 'must be a string' })
    .max(CONFIG_BOUNDS.textLength, { error: `must be at most ${CONFIG_BOUNDS.textLength} characters long` });
/** A key of an object a person fills in (a header's name, an env variable's, a word). */
const key = () => z.string().max(CONFIG_BOUNDS.nameLength, { error: `has a name over ${CONFIG_BOUNDS.nameLength} characters long` });
/** An array of at most `max` items, saying so when it has more. */
const atMostItems = <T extends z.ZodArray>(a: T, max: number) => a.max(max, { error: `must have at most ${max} items` });
/** An object of at most `max` entries (in the JSON Schema as maxProperties). */
const atMostEntries = <T extends z.ZodType>(r: T, max: number) =>
  r
    .refine((o) => typeof o !== 'object' || o === null || Object.keys(o).length <= max, {
      error: `must have at most ${max} entries`,
      params: HIDE_INPUT,
    })
    .meta({ maxProperties: max });
const nonEmpty = () => str().refine((s) => s.trim() !== '', { error: 'must not be empty', params: HIDE_INPUT });
const pattern = (re: RegExp, hint: string) => str().regex(re, { error: hint });
/** Lowercase letters, digits and dashes, starting with a letter or digit, at most `max` long (in the JSON Schema as maxLength). */
const slug = (max: number, say: (rule: string) => string = (rule) => `must be a slug: ${rule}`) => {
  const error = say(`up to ${max} lowercase letters, digits and dashes, starting with a letter or digit`);
  return str()
    .max(max, { error })
    .regex(/^[a-z0-9][a-z0-9-]*$/, { error })
    .refine((v) => !isReservedName(v), { error: (iss) => `"${String(iss.input)}" ${RESERVED_NAME_WORDS}` });
};
const int = (min: number, max: number) => {
  const reason = `must be a whole number from ${min} to ${max}`;
  return z.number({ error: reason }).int({ error: reason }).min(min, { error: reason }).max(max, { error: reason });
};
const bool = () => z.boolean({ error: 'must be true or false' });
const strArray = (max: number) => atMostItems(z.array(nonEmpty(), { error: 'must be an array of strings' }), max);
/**
 * Turns `~/…` into a path in the user's home folder (paths.ts). Passed in, so this file stays free of
 * Node: the window's types are derived from it too.
 */
export type ExpandHome = (path: string) => string;
const pathArray = (expand: ExpandHome) =>
  atMostItems(z.array(nonEmpty().transform(expand), { error: 'must be an array of strings' }), CONFIG_BOUNDS.listItems);
const strRecord = (max: number) => atMostEntries(z.record(key(), str(), { error: 'must be an object of strings' }), max);
/** A `${secret:NAME}` that is not well formed would be sent as it is: refused instead. */
const BAD_SECRET_REF = /\$\{secret:(?![A-Za-z0-9._:/-]{1,200}\})/;
const SECRET_REF_HINT = 'has a malformed ${secret:NAME} reference (NAME: 1 to 200 letters, digits or . _ - / :)';
/** Header or env values: plain strings, or references `${secret:NAME}`, `${input:ID}`, `${env:NAME}` resolved when connecting (secrets/refs.ts). */
/** A header name is an HTTP token (RFC 9110 §5.1); a value holds no control character but tab (CR or LF would start another header). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const HEADER_VALUE_CONTROLS = /[\u0000-\u0008\u000a-\u001f\u007f]/;
const headerRule = (v: string) => !HEADER_VALUE_CONTROLS.test(v);
const valueRecord = (what: string, max: number, header = false) =>
  atMostEntries(
    z.record(
      header
        ? key().regex(HEADER_NAME, { error: "has a header name that is not an HTTP token (letters, digits and !#$%&'*+.^_`|~-)" })
        : key(),
      str()
        .refine((v) => !BAD_SECRET_REF.test(v), { error: SECRET_REF_HINT, params: HIDE_INPUT })
        .refine((v) => !header || headerRule(v), {
          error:
            'has a header value with a control character (a line break, NUL or escape); HTTP cannot send it. Paste the value again without it',
          params: HIDE_INPUT,
        }),
      { error: 'must be an object of strings' },
    ),
    max,
  ).meta({
    description: `${what} A value may be, or contain, \${secret:NAME} (kept in the secret store, not in this file), \${input:ID} (a value you fill in with \`mws upstream set\`) or \${env:NAME} (mws's own environment variable).`,
  });
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
/** A section whose fields all have defaults: absent, it is filled in field by field. */
const section = <S extends z.ZodRawShape>(shape: S) => fields(shape).prefault({} as never);
/**
 * `enabled: false` keeps an upstream in the config but turned off; `true` is the same as leaving it out,
 * so the running config holds the field only as false.
 */
const enabled = () =>
  bool()
    .optional()
    .transform((e) => (e === false ? false : undefined))
    .meta({ description: 'false: the upstream is kept but turned off (not started, its tools out of every list and search).' });
/** The running upstream: its kind first, and `enabled` only when false. */
const upstreamOf =
  <K extends string>(kind: K) =>
  <T extends { enabled?: false | undefined }>({ enabled, ...u }: T): { kind: K } & Omit<T, 'enabled'> & { enabled?: false } => ({
    kind,
    ...u,
    ...(enabled === false ? { enabled } : {}),
  });

/** A pre-registered OAuth client and what to ask for; without it, the client registers itself (CIMD or RFC 7591). */
const oauthUpstream = fields({
  clientId: nonEmpty()
    .optional()
    .meta({ description: "A client ID the server's authorization server issued to you (skips dynamic registration)." }),
  clientSecret: nonEmpty().optional().meta({ description: "That client's secret, when it has one." }),
  scope: nonEmpty().optional().meta({ description: 'Scopes to ask for (space-separated); otherwise those the server names.' }),
  clientMetadataUrl: nonEmpty()
    .optional()
    .meta({ description: 'An https URL of a client ID metadata document to use as the client ID where the server supports it.' }),
});
const httpUpstream = fields({
  url: nonEmpty()
    .superRefine((url, ctx) => {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return ctx.addIssue({ code: 'custom', message: 'must be an absolute http(s) URL', input: url });
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
        ctx.addIssue({ code: 'custom', message: 'must use http or https', input: url });
      else if (parsed.username || parsed.password) {
        // Shown as given, a password in the URL would end up in logs and the window.
        ctx.addIssue({
          code: 'custom',
          message:
            'must not carry a user name or password (user:pass@); put the credential in "headers" instead, e.g. {"Authorization": "Bearer …"}',
          input: maskUrl(url),
        });
      }
    })
    .meta({ description: "The MCP server's Streamable HTTP (or SSE) endpoint, e.g. http://127.0.0.1:4483/mcp." }),
  headers: valueRecord(
    'Headers sent with every request, e.g. {"Authorization": "${secret:upstreams.github.headers.Authorization}"}.',
    CONFIG_BOUNDS.headers,
    true,
  ).default({}),
  bearerTokenEnvVar: pattern(ENV_NAME, 'must be an environment variable name (letters, digits and _, not starting with a digit)')
    .optional()
    .meta({
      description:
        'Send "Authorization: Bearer $VAR" with VAR read from mws\'s environment when connecting (Codex\'s bearer_token_env_var). Unset: the upstream says it needs a value.',
    }),
  enabled: enabled(),
  transport: oneOf(['auto', 'streamable-http', 'sse'])
    .optional()
    .meta({ description: 'How to reach it: "auto" (the default: Streamable HTTP, then the old HTTP+SSE), or only one of them.' }),
  oauth: z
    .union([z.literal(false), oauthUpstream], {
      error: 'must be false (never sign in) or an object with clientId, clientSecret, scope, clientMetadataUrl',
    })
    .optional()
    .meta({
      description:
        'OAuth 2.1 sign-in to this server (used when it answers 401): a pre-registered client, the scope to ask for, or false to never sign in. Absent: sign in with dynamic registration.',
    }),
}).transform(upstreamOf('http'));
const stdioUpstream = (expand: ExpandHome) =>
  fields({
    command: nonEmpty().meta({ description: 'The program that starts the server (npx, uvx, a full path…).' }),
    args: strArray(CONFIG_BOUNDS.args).default([]),
    env: valueRecord('Environment variables for the server.', CONFIG_BOUNDS.env).default({}),
    envFile: nonEmpty()
      .refine((f) => f.startsWith('/') || f.startsWith('~') || /^[A-Za-z]:[\\/]/.test(f) || f.startsWith('\\\\'), {
        error: 'must be an absolute path (or start with ~/); `mws import` writes it so',
      })
      .transform(expand)
      .optional()
      .meta({ description: 'A dotenv file read each time the server starts; "env" wins over it.' }),
    cwd: nonEmpty().transform(expand).optional(),
    enabled: enabled(),
  }).transform(upstreamOf('stdio'));
/** An upstream served in-process by the app itself (the demo toolbox). */
const builtinUpstream = fields({ builtin: oneOf(['demo']), enabled: enabled() }).transform(({ builtin, ...u }) =>
  upstreamOf('builtin')({ name: builtin, ...u }),
);

/**
 * An upstream is told apart by the key it has, in this order: `url` (HTTP), `command` (stdio),
 * `builtin`. validate.ts reports the branch of the first key present.
 */
export const UPSTREAM_KEYS = ['url', 'command', 'builtin'] as const;
/** Whether an object looks like several servers by name (each an object with a url or a command). */
const looksLikeMany = (o: Record<string, unknown>) => {
  const values = Object.values(o);
  return (
    values.length > 0 &&
    values.every((v) => typeof v === 'object' && v !== null && UPSTREAM_KEYS.some((k) => Object.hasOwn(v as object, k)))
  );
};

/** Why an object is no upstream, with a did-you-mean for a misspelt "url"/"command" ("comand"). */
function notAnUpstream(o: Record<string, unknown>, single: boolean): string {
  if (single && looksLikeMany(o))
    return 'holds one server (its tools keep their own names); for several servers by name, write "upstreams" (did you mean "upstreams"?)';
  for (const key of Object.keys(o)) {
    const near = closest(key, [...UPSTREAM_KEYS]);
    if (near && near !== key)
      return `needs "url" for an HTTP server or "command" for a stdio server (did you mean "${near}" for "${key}"?)`;
  }
  return 'needs "url" for an HTTP server or "command" for a stdio server';
}

/** `single`: the old one-server "upstream" field, where a map of servers means "upstreams" was meant. */
const upstreamSchema = (expand: ExpandHome, single = false) =>
  z.union([httpUpstream, stdioUpstream(expand), builtinUpstream], {
    error: (iss) =>
      typeof iss.input === 'object' && iss.input !== null && !Array.isArray(iss.input)
        ? notAnUpstream(iss.input as Record<string, unknown>, single)
        : 'must be an object with "url" (HTTP) or "command" (stdio)',
  });

/** An issuer or introspection endpoint: https, or http on this machine (a test, a local provider). */
const issuerUrl = () =>
  nonEmpty().superRefine((url, ctx) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return ctx.addIssue({ code: 'custom', message: 'must be an absolute https URL', input: url });
    }
    if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname)))
      ctx.addIssue({ code: 'custom', message: 'must use https (http only on loopback)', input: url });
    else if (parsed.username || parsed.password || parsed.search || parsed.hash)
      ctx.addIssue({ code: 'custom', message: 'must be a plain URL without user info, query or fragment', input: maskUrl(url) });
  });

/** An agent protected by the team's authorization server: access tokens checked as JWTs against its keys, or by introspection. */
const agentAuthSchema = fields({
  issuer: issuerUrl().meta({ description: 'The authorization server (its "issuer"); its metadata and keys are found from it.' }),
  audience: nonEmpty().optional().meta({ description: "The audience tokens must name; default: the agent endpoint's URL (its resource)." }),
  claim: nonEmpty().optional().meta({ description: 'A claim that decides who may use this agent (e.g. "groups" or "roles").' }),
  values: strArray(CONFIG_BOUNDS.listItems)
    .optional()
    .meta({ description: 'The claim must hold one of these; with "claim" and no "values", the claim only has to be there.' }),
  introspection: fields({
    url: issuerUrl(),
    clientId: nonEmpty(),
    clientSecret: nonEmpty(),
  })
    .optional()
    .meta({ description: 'Check opaque tokens at this RFC 7662 introspection endpoint instead of as JWTs.' }),
});

const agentSchema = fields({
  id: slug(AGENT_ID_MAX_LENGTH),
  name: nonEmpty().optional().meta({ description: 'Shown in the window; default: the id ("Default" for the default agent).' }),
  cap: int(1, 500).default(DEFAULT_CAP).meta({ description: 'How many tools the agent lists at most.' }),
  idleWindowDays: int(1, 3650).default(DEFAULT_IDLE_WINDOW_DAYS).meta({ description: 'A tool unused for this many days leaves the list.' }),
  approvals: oneOf(['ask', 'allow', 'read-only']).default('ask'),
  pins: strArray(CONFIG_BOUNDS.pins).default([]),
  token: pattern(AGENT_TOKEN_PATTERN, AGENT_TOKEN_HINT)
    .optional()
    .meta({ description: "When set, the agent's endpoint needs Authorization: Bearer <token>." }),
  auth: agentAuthSchema.optional().meta({
    description:
      "Sign-in through an authorization server: the endpoint answers 401 pointing at its metadata, and takes that server's access tokens (beside the token, if set).",
  }),
}).transform(({ name, ...a }) => ({ ...a, name: name ?? (a.id === DEFAULT_AGENT_ID ? 'Default' : a.id) }));

const days = () => int(1, 3650);

/** The file as written: every field optional; parsing fills in the defaults field by field. */
const fileSchemaWith = (expand: ExpandHome) =>
  fields({
    $schema: str().optional(),
    version: z
      .number({ error: `must be a whole number from 1 to ${CONFIG_VERSION}` })
      .int({ error: `must be a whole number from 1 to ${CONFIG_VERSION}` })
      .min(1, { error: `must be a whole number from 1 to ${CONFIG_VERSION}` })
      .max(CONFIG_VERSION, {
        error: `is newer than this mws understands (up to ${CONFIG_VERSION}); update mws, or write ${CONFIG_VERSION}`,
      })
      .optional()
      .meta({ description: "The config format's version; an older file is migrated when it is read." }),
    upstream: upstreamSchema(expand, true)
      .optional()
      .meta({ description: 'One upstream whose tools keep their own names (instead of "upstreams").' }),
    upstreams: atMostEntries(
      z.record(
        slug(VENDOR_MAX_LENGTH, (rule) => `has a key that is not a vendor slug (${rule})`),
        upstreamSchema(expand),
        { error: 'must be an object keyed by vendor slug' },
      ),
      CONFIG_BOUNDS.upstreams,
    )
      .optional()
      .meta({ description: 'MCP servers keyed by vendor slug; their tools are named vendor__tool.' }),
    listen: section({
      host: nonEmpty().default('127.0.0.1').meta({
        description:
          'The address to listen on. Loopback by default; another address only with every agent holding a token and "tls" or "publicUrl" with "trustedProxies" (docs/guide/network.md).',
      }),
      port: int(0, 65535).default(DEFAULT_PORT).meta({ description: '0 picks a free port.' }),
      tls: fields(
        { cert: nonEmpty().transform(expand), key: nonEmpty().transform(expand) },
        'must be an object with "cert" and "key" (PEM file paths)',
      )
        .optional()
        .meta({ description: "Serve HTTPS with this certificate and private key (PEM files), on Node's own TLS." }),
      publicUrl: pattern(/^https:\/\/[^/?#\s]+\/?$/i, 'must be an https:// origin such as https://mws.example.com')
        .optional()
        .meta({ description: 'The https:// origin clients use when a TLS-terminating proxy sits in front (with "trustedProxies").' }),
      trustedProxies: strArray(CONFIG_BOUNDS.listItems)
        .optional()
        .meta({ description: 'Addresses or CIDRs (10.0.0.0/8) of the proxies whose X-Forwarded-* headers are believed.' }),
    }),
    stateDir: nonEmpty()
      .transform(expand)
      .optional()
      .meta({ description: 'The state folder (usage, history, catalogs); default: $XDG_STATE_HOME/mcp-working-set.' }),
    store: fields({
      postgres: fields({
        url: pattern(/^postgres(?:ql)?:\/\/\S+$/i, 'must be a postgres:// connection URL').meta({
          description: 'The PostgreSQL database the replicas share (also MWS_DATABASE_URL); docs/guide/team.md.',
        }),
        keyFile: nonEmpty().transform(expand).optional().meta({
          description: 'A file holding the key that seals secrets and sign-ins (else MWS_STATE_KEY); never stored in the database.',
        }),
      })
        .optional()
        .meta({ description: 'Keep the shared state in PostgreSQL, so several `mws serve` replicas act as one (docs/guide/team.md).' }),
    })
      .optional()
      .meta({ description: 'Where the shared state lives: the state folder (default), or PostgreSQL.' }),
    serverName: pattern(/^[A-Za-z0-9_-]{1,64}$/, 'must be letters, digits, "_" or "-"').default('toolbox'),
    backendHints: strRecord(CONFIG_BOUNDS.words).default({}),
    pins: strArray(CONFIG_BOUNDS.pins).default([]),
    hiddenTools: atMostEntries(
      z.record(key(), strArray(CONFIG_BOUNDS.pins), { error: 'must be an object of upstream name → array of its tool names' }),
      CONFIG_BOUNDS.upstreams,
    )
      .default({})
      .meta({
        description:
          'Tools hidden from every agent and from search, per upstream, by the name the upstream gives them, e.g. {"github": ["delete_repository"]}. `mws tool hide UPSTREAM TOOL` writes it.',
      }),
    pinFiles: pathArray(expand).default([]),
    promote: section({
      minSessions: int(1, 1000).default(2),
      minCalls: int(1, 100_000).default(1),
      windowDays: days().default(30),
      keepDays: days().default(60),
      pinDecayDays: days().default(90),
    }),
    transcripts: atMostItems(
      z.array(
        fields({
          type: oneOf(['claude-code']),
          root: nonEmpty().transform(expand),
          agent: slug(AGENT_ID_MAX_LENGTH, (rule) => `must be an agent id: ${rule}`).default(DEFAULT_AGENT_ID),
        }),
        { error: 'must be an array' },
      ),
      CONFIG_BOUNDS.listItems,
    )
      .default([])
      .meta({ description: "A client's transcripts, and the agent whose calls they hold (its endpoint is what the client uses)." }),
    timeouts: section({
      listMs: int(50, 600_000).default(5000).meta({ description: 'How long a list waits for an upstream that is starting.' }),
      connectMs: int(100, 3_600_000).default(120_000).meta({ description: 'One upstream start (spawn + initialize).' }),
      callMs: int(50, 86_400_000).default(120_000),
      catalogTtlMs: int(0, 86_400_000).default(30_000),
      approvalMs: int(100, 86_400_000).default(120_000).meta({ description: 'How long a call waits in the approvals inbox.' }),
      approvalAnswerMs: int(100, 86_400_000).default(DEFAULT_APPROVAL_ANSWER_MS).meta({
        description:
          'A call waiting for approval answers its client after this long (clients give up after about 60 s), saying it waits for the user; its retry after the grant runs at once.',
      }),
    }),
    maxResultBytes: int(1024, 1024 * 1024 * 1024)
      .default(DEFAULT_MAX_RESULT_BYTES)
      .meta({ description: 'The largest upstream result forwarded; a larger one is answered with a sentence.' }),
    compactDescriptions: bool().default(false),
    searchAliases: atMostEntries(
      z.record(key(), strArray(CONFIG_BOUNDS.words), { error: 'must be an object of word → array of words' }),
      CONFIG_BOUNDS.words,
    ).default({}),
    search: section({
      model: z
        .enum(SEARCH_MODELS, { error: `must be one of the shipped models: ${SEARCH_MODELS.join(', ')}` })
        .optional()
        .meta({
          description:
            'The sentence model that ranks tools by meaning beside the words (docs/research/search.md compares them); default: all-minilm-l6-v2-int8. A change takes effect after a restart.',
        }),
      learn: bool().default(true).meta({ description: 'Record search→call pairs and rank with the words learned from them.' }),
      shareLearning: bool().optional().meta({
        description:
          "Agents learn from each other's searches. Default: true while no agent has a token, false once one has; even when true, an agent without a token never teaches one with a token (nor the other way).",
      }),
    }),
    desktop: z.unknown().optional().meta({
      deprecated: true,
      description:
        'No longer read: the desktop app keeps its notification and start-at-login switches in its own preferences, and moves this block there on its first start.',
    }),
    operators: fields({
      issuer: issuerUrl().meta({ description: "The team's authorization server; its access tokens reach /control with a role." }),
      audience: nonEmpty()
        .optional()
        .meta({ description: "The audience operators' tokens must name; default: this instance's /control URL." }),
      roleClaim: nonEmpty().optional().meta({ description: 'The claim that carries the role; default: "roles".' }),
      admin: strArray(CONFIG_BOUNDS.listItems)
        .optional()
        .meta({ description: 'Claim values that make an admin: everything; default: ["admin"].' }),
      approver: strArray(CONFIG_BOUNDS.listItems)
        .optional()
        .meta({ description: 'Claim values that make an approver: the approvals inbox and the read-only views; default: ["approver"].' }),
      viewer: strArray(CONFIG_BOUNDS.listItems)
        .optional()
        .meta({ description: 'Claim values that make a viewer: read only; default: ["viewer"].' }),
      scope: nonEmpty()
        .optional()
        .meta({ description: 'The scopes the window and `mws login --operator` ask for, space-separated; default: "openid".' }),
      window: fields({
        clientId: nonEmpty().meta({ description: 'The client registered at the provider for the window.' }),
        clientSecret: nonEmpty().optional().meta({ description: "That client's secret, when the provider made it confidential." }),
      })
        .optional()
        .meta({
          description:
            'People sign in to the window through the provider (authorization code with PKCE); register <this URL>/ui/_signin/callback as its redirect URI.',
        }),
      cli: fields({
        clientId: nonEmpty().meta({ description: 'A public client with the device grant, for `mws login --operator`.' }),
      })
        .optional()
        .meta({ description: "The client `mws login --operator` signs in with (the device flow); published in /control's metadata." }),
    })
      .optional()
      .meta({
        description:
          "People and machines that operate this instance, signed in through the team's identity provider (docs/guide/agent-sign-in.md); the control token and the window's one-time link stay the admin's.",
      }),
    agents: atMostItems(z.array(agentSchema, { error: 'must be an array of agents' }), CONFIG_BOUNDS.agents)
      .optional()
      .meta({
        description: 'The agents, each with its own endpoint /mcp/<id>/mcp; the default agent (/mcp) is there even when not listed.',
      }),
    defaultAgent: bool().default(true).meta({ description: 'false: /mcp (the default agent) is not served.' }),
    uiSessions: section({
      idleMinutes: int(1, 7 * 24 * 60)
        .default(120)
        .meta({ description: 'A settings-window session in a browser ends after this long idle…' }),
      maxHours: int(1, 24 * 90)
        .default(24)
        .meta({ description: '…and this long after its login, whatever happens.' }),
    }),
    activity: section({
      recordArguments: bool().default(false).meta({
        description:
          "true: the activity log (calls.jsonl) also keeps each call's arguments and the start of its result. Off by default: the log may be shared when reporting a problem.",
      }),
      maxFileMB: int(1, 4096).default(DEFAULT_ACTIVITY_MAX_FILE_MB).meta({
        description:
          'calls.jsonl moves to calls.1.jsonl (replacing it) at the write that would take it past this many MiB, so the log never holds more than twice it.',
      }),
    }),
    listChanges: section({
      quietMinutes: int(0, 24 * 60)
        .default(DEFAULT_QUIET_MINUTES)
        .meta({
          description:
            "Scheduled sweeps and usage promotions change an agent's list only after it sent nothing for this long, so a running conversation keeps its prompt cache (0: at once). The agent's and the user's own promote/demote are always at once.",
        }),
    }),
  });

/** The file's schema as published (config.schema.json, fieldRules.ts): the input side, where `~` is not expanded yet. */
export const configFileSchema = fileSchemaWith((p) => p);

export type AgentFile = z.output<typeof agentSchema>;

/** An agent with every default, as one left out of the file (or named only by its id) runs. */
export const defaultAgent = (id: string = DEFAULT_AGENT_ID): AgentFile => agentSchema.parse({ id });

/**
 * The running config: the checks that span fields, the single `upstream` kept unprefixed, the default
 * agent always there, the file-only fields ($schema, version, the old desktop block) left out. What
 * depends on the machine comes from validate.ts: `~` expanded by paths.ts, the state folder's default.
 */
export const configSchemaWith = (expand: ExpandHome) =>
  fileSchemaWith(expand).transform((o, ctx) => {
    const { $schema: _schema, version: _version, desktop: _desktop, upstream, upstreams, agents: listed, searchAliases, ...rest } = o;
    const refuse = (path: PropertyKey[], message: string) => {
      ctx.issues.push({ code: 'custom', message, path, input: undefined, params: HIDE_INPUT });
      return z.NEVER;
    };
    if (upstream && upstreams) return refuse(['upstream'], 'cannot be used together with "upstreams"; keep one of them');
    const agents = listed ?? [];
    const seen = new Set<string>();
    for (const [i, a] of agents.entries()) {
      if (seen.has(a.id)) return refuse(['agents', i, 'id'], `repeats the agent id "${a.id}"; ids must be unique`);
      seen.add(a.id);
    }
    // Beyond loopback only encrypted; the rest (tokens, the proxies' addresses) is http/exposure.ts's at start-up.
    if (!isLoopbackHost(rest.listen.host) && !rest.listen.tls && rest.listen.publicUrl === undefined) {
      return refuse(
        ['listen', 'host'],
        'must be a loopback address (127.0.0.1, ::1 or localhost) unless "listen.tls" (HTTPS here) or "listen.publicUrl" with "listen.trustedProxies" (a TLS proxy in front) is set; see docs/guide/network.md',
      );
    }
    if (!rest.defaultAgent && !agents.some((a) => a.id !== DEFAULT_AGENT_ID)) {
      return refuse(['defaultAgent'], 'is false, so at least one other agent is needed under "agents" (otherwise no endpoint is served)');
    }
    return {
      /** Upstreams keyed by vendor; `prefixNames` is false only for the seed-style single `upstream`, whose tools keep their own names. */
      upstreams: upstream ? { [SINGLE_UPSTREAM_KEY]: upstream } : (upstreams ?? {}),
      prefixNames: !upstream,
      ...rest,
      searchAliases: Object.fromEntries(Object.entries(searchAliases).map(([k, words]) => [k.toLowerCase(), words])),
      // The `default` agent always exists: it is what `/mcp` serves.
      agents: seen.has(DEFAULT_AGENT_ID) ? agents : [defaultAgent(), ...agents],
    };
  });
