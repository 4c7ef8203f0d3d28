// Per-agent access on the MCP endpoints. With no tokens configured every loopback client may use
// every agent (the single-user default). An agent with `token` answers only requests that carry it,
// and `defaultAgent: false` closes `/mcp`, so a local process cannot pick the most permissive endpoint.
// An agent with `auth` takes access tokens from the team's authorization server (http/agentTokens.ts),
// and its 401 points at the endpoint's metadata so a client finds where to sign in (RFC 9728).
// The listener asks this gate (its McpGate) before a request reaches the agent's endpoint.
import { DEFAULT_AGENT_ID, type Config } from '../config/schema.js';
import { bearerToken, tokenMatches } from '../store/controlToken.js';
import type { AgentTokens } from './agentTokens.js';
import { challenge, metadataUrl, resourceUrl } from './protectedResource.js';

export type GateRefusal = { status: number; message: string; challenge?: string };

/** What an agent signed in through an authorization server needs at request time. */
export type AgentSignIn = { origin: string; tokens: AgentTokens };

/**
 * Undefined when the request may reach the agent's endpoint; else the status, sentence and
 * WWW-Authenticate challenge to answer. Only a token checked against an authorization server waits.
 */
export function agentGate(
  config: Config,
  agentId: string,
  authorization: string | undefined,
  /** On a network listener an agent without a token (one added while running) is not served at all. */
  network = false,
  signIn?: AgentSignIn,
): GateRefusal | undefined | Promise<GateRefusal | undefined> {
  if (agentId === DEFAULT_AGENT_ID && !config.defaultAgent) {
    return {
      status: 404,
      message:
        'The default agent is switched off here (defaultAgent: false in the config). Use the endpoint of a configured agent: /mcp/<agent-id>/mcp.',
    };
  }
  const agent = config.agents.find((a) => a.id === agentId);
  if (!agent?.token && !agent?.auth) {
    if (!network) return undefined;
    return {
      status: 401,
      message: `The agent "${agentId.slice(0, 64)}" has no token, and this listener is on a network, where every agent needs one: run \`mws agent token ${agentId.slice(0, 64)}\` and send "Authorization: Bearer <token>".`,
      challenge: challenge({}),
    };
  }
  const bearer = bearerToken(authorization);
  if (agent.token && tokenMatches(bearer, agent.token)) return undefined;
  if (agent.auth && signIn) {
    const auth = agent.auth;
    const metadata = metadataUrl(signIn.origin, agentId);
    if (!bearer)
      return {
        status: 401,
        message: `The agent "${agentId}" signs in through ${auth.issuer}: sign in there (an MCP client finds how from this answer) and send "Authorization: Bearer <access token>".`,
        challenge: challenge({ metadata }),
      };
    return signIn.tokens.verify(bearer, auth, resourceUrl(signIn.origin, agentId)).then((v) =>
      v.ok
        ? undefined
        : {
            status: v.status,
            message: v.message,
            ...(v.status === 503
              ? {}
              : {
                  challenge: challenge({
                    metadata,
                    error: v.status === 403 ? 'insufficient_scope' : 'invalid_token',
                    description: v.message,
                  }),
                }),
          },
    );
  }
  return {
    status: 401,
    message: `The agent "${agentId}" needs its token: send the header "Authorization: Bearer <token>" (the agent's client configs in the window include it; \`mws agent token ${agentId}\` makes a new one).`,
    challenge: challenge(bearer ? { error: 'invalid_token', description: "The token is not this agent's." } : {}),
  };
}
