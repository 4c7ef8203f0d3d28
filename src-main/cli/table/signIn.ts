// Signing in and reaching an instance: upstreams' and operators' sign-ins, the agents' own, a client's
// entry for an agent, and the window.
import { MwsError } from '../../core/errors.js';
import { CONFIG, JSON_OUT, AGENT, str, flag, common, type Spec } from '../spec.js';

export const SIGN_IN: Record<string, Spec> = {
  login: {
    summary: 'sign in to an OAuth upstream (prints the link, opens a browser when there is one, waits)',
    usage: [
      'mws login UPSTREAM [--no-browser] [--reset]',
      "mws login --operator URL [--no-browser]   sign the CLI in to a remote instance through the team's identity provider",
    ],
    options: {
      config: CONFIG,
      'no-browser': { type: 'boolean', help: 'only print the link' },
      reset: { type: 'boolean', help: "forget the tokens and Working Set's registration at the server first" },
      operator: { type: 'string', arg: 'URL', help: 'sign in as an operator of the instance at URL (then: MWS_REMOTE=URL mws …)' },
    },
    positionals: 1,
    run: async (io, v, pos) => {
      const operator = str(v.operator);
      if (operator !== undefined) {
        if (pos[0]) throw new MwsError('usage', '`mws login --operator URL` takes no upstream name.');
        const { runOperatorLogin } = await import('../commands/operatorLogin.js');
        return runOperatorLogin(io, { config: str(v.config), url: operator, browser: !flag(v['no-browser']) });
      }
      return (await import('../commands/login.js')).runLogin(io, {
        config: str(v.config),
        vendor: pos[0],
        browser: !flag(v['no-browser']),
        reset: flag(v.reset),
      });
    },
  },
  logout: {
    summary: 'sign out of an OAuth upstream (its tokens are revoked where the server supports it; the registration is forgotten)',
    usage: ['mws logout UPSTREAM', 'mws logout --operator URL   forget (and revoke) the sign-in to a remote instance'],
    options: { config: CONFIG, operator: { type: 'string', arg: 'URL', help: 'sign out of the instance at URL' } },
    positionals: 1,
    run: async (io, v, pos) => {
      const operator = str(v.operator);
      if (operator !== undefined)
        return (await import('../commands/operatorLogin.js')).runOperatorLogout(io, { config: str(v.config), url: operator });
      return (await import('../commands/login.js')).runLogout(io, { config: str(v.config), vendor: pos[0] });
    },
  },
  auth: {
    summary: 'each OAuth upstream: signed in, sign in, or sign in again, and when its token expires',
    usage: ['mws auth status [--json]'],
    options: { config: CONFIG, json: JSON_OUT },
    positionals: 1,
    run: async (io, v, pos) => {
      if (pos[0] !== undefined && pos[0] !== 'status')
        throw new MwsError(
          'usage',
          `mws auth takes "status" (got "${pos[0]}"); \`mws login NAME\` signs in, \`mws logout NAME\` signs out.`,
        );
      return (await import('../commands/auth.js')).runAuthStatus(io, { config: str(v.config), json: flag(v.json) });
    },
  },
  client: {
    summary: 'point Claude Code, Claude Desktop, Cursor, VS Code or Codex at an agent, or see which point here',
    usage: [
      'mws client list [--json]                      which clients point here, and at which agent',
      'mws client connect CLIENT [--agent ID]        CLIENT: claude-code, claude-desktop, cursor, vscode or codex',
    ],
    options: { config: CONFIG, agent: AGENT, json: JSON_OUT },
    positionals: 2,
    run: async (io, v, pos) => {
      const cmd = await import('../commands/client.js');
      if (pos[0] === 'list' && pos.length === 1) return cmd.runClientList(io, common(v));
      if (pos[0] === 'connect') return cmd.runClientConnect(io, { ...common(v), client: pos[1] });
      throw new MwsError(
        'usage',
        `mws client takes "list" or "connect CLIENT"${pos[0] ? ` (got "${pos.join(' ')}")` : ''}: \`mws client connect cursor --agent default\` points Cursor at that agent.`,
      );
    },
  },
  ui: {
    summary: "a new one-time link to the running instance's settings window",
    usage: ['mws ui [--revoke-all]'],
    options: { config: CONFIG, 'revoke-all': { type: 'boolean', help: 'end every open window session and unspent link instead' } },
    positionals: 0,
    run: async (io, v) => (await import('../commands/ui.js')).runUi(io, { config: str(v.config), revokeAll: flag(v['revoke-all']) }),
  },
};
