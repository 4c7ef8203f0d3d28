// Per-agent access on the MCP endpoints. With no tokens configured every loopback client may use
// every agent (the single-user default). An agent with `token` answers only requests that carry it,
// and `defaultAgent: false` closes `/mcp`, so a local process cannot pick the most permissive endpoint.
// The listener asks this gate (its McpGate) before a request reaches the agent's endpoint.
import { DEFAULT_AGENT_ID, type Config } from '../config/schema.js';
import { bearerToken, tokenMatches } from '../store/controlToken.js';

/** Undefined when the request may reach the agent's endpoint; else the status and sentence to answer. */
export function agentGate(
  config: Config,
  agentId: string,
  authorization: string | undefined,
  /** On a network listener an agent without a token (one added while running) is not served at all. */
  network = false,
): { status: number; message: string } | undefined {
  if (agentId === DEFAULT_AGENT_ID && !config.defaultAgent) {
    return {
      status: 404,
      message:
        'The default agent is switched off here (defaultAgent: false in the config). Use the endpoint of a configured agent: /mcp/<agent-id>/mcp.',
    };
  }
  const agent = config.agents.find((a) => a.id === agentId);
  if (!agent?.token) {
    if (!network) return undefined;
    return {
      status: 401,
      message: `The agent "${agentId.slice(0, 64)}" has no token, and this listener is on a network, where every agent needs one: run \`mws agent token ${agentId.slice(0, 64)}\` and send "Authorization: Bearer <token>".`,
    };
  }
  if (tokenMatches(bearerToken(authorization), agent.token)) return undefined;
  return {
    status: 401,
    message: `The agent "${agentId}" needs its token: send the header "Authorization: Bearer <token>" (the agent's client configs in the window include it; \`mws agent token ${agentId}\` makes a new one).`,
  };
}
