// An agent endpoint as an OAuth protected resource (RFC 9728): where its metadata lives, what the
// metadata says, and the WWW-Authenticate challenge a 401 carries so a client finds how to sign in.
import { DEFAULT_AGENT_ID, type AgentConfig } from '../config/schema.js';

export const PRM_PREFIX = '/.well-known/oauth-protected-resource';

/** The endpoint's path: /mcp for the default agent, /mcp/<id> for the others. */
export function endpointPath(agentId: string): string {
  return agentId === DEFAULT_AGENT_ID ? '/mcp' : `/mcp/${encodeURIComponent(agentId)}`;
}

/** The endpoint's resource identifier, the audience its tokens must name unless the config names another. */
export function resourceUrl(origin: string, agentId: string): string {
  return `${origin}${endpointPath(agentId)}`;
}

/** Where the endpoint's metadata is served (RFC 9728 §3.1: the well-known prefix before the resource's path). */
export function metadataUrl(origin: string, agentId: string): string {
  return `${origin}${PRM_PREFIX}${endpointPath(agentId)}`;
}

/**
 * The agent a metadata path names: `/.well-known/oauth-protected-resource/mcp[/<id>[/mcp]]`; undefined
 * for any other path, null for a metadata path that names no endpoint.
 */
export function metadataAgentOf(path: string): string | null | undefined {
  if (path !== PRM_PREFIX && !path.startsWith(`${PRM_PREFIX}/`)) return undefined;
  const m = /^\/mcp(?:\/([^/]+))?(?:\/mcp)?\/?$/.exec(path.slice(PRM_PREFIX.length));
  if (!m) return null;
  if (!m[1]) return DEFAULT_AGENT_ID;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return null;
  }
}

/** The metadata document of an agent signed in through an authorization server. */
export function metadataDocument(origin: string, agent: Pick<AgentConfig, 'id' | 'name'>, issuer: string): Record<string, unknown> {
  return {
    resource: resourceUrl(origin, agent.id),
    authorization_servers: [issuer],
    bearer_methods_supported: ['header'],
    resource_name: `Working Set · ${agent.name ?? agent.id}`,
  };
}

/** RFC 6750 §3 challenge; a quoted value cannot carry a quote or a line break. */
export function challenge(opts: { metadata?: string; error?: 'invalid_token' | 'insufficient_scope'; description?: string }): string {
  const q = (v: string) => `"${v.replace(/["\\\r\n]/g, ' ').slice(0, 300)}"`;
  const parts = [
    ...(opts.metadata ? [`resource_metadata=${q(opts.metadata)}`] : ['realm="Working Set"']),
    ...(opts.error ? [`error=${q(opts.error)}`] : []),
    ...(opts.error && opts.description ? [`error_description=${q(opts.description)}`] : []),
  ];
  return `Bearer ${parts.join(', ')}`;
}
