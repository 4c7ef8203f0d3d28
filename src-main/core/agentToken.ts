// A new agent token (config `agents[].token`), made by the window's settings and by `mws agent token`;
// the edge's gate (http/agentGate.ts) checks it. A leaf, so neither caller imports the edge.
import { randomBytes } from 'node:crypto';

/** A new agent token: 32 random bytes, URL-safe. */
export function newAgentToken(): string {
  return `mws_${randomBytes(32).toString('base64url')}`;
}
