// `mws agent token A`: a new bearer token for one agent, saved in the config and shown once.
// Through the running instance when there is one (it applies it at once), else straight into the file.
import { ConfigEditor } from '../../core/config/editor.js';
import { MwsError } from '../../core/errors.js';
import { newAgentToken } from '../../core/agentToken.js';
import { withControl } from '../instance.js';
import { cliConfig } from '../config.js';
import type { Io } from '../output.js';

export async function runAgentToken(io: Io, flags: { config: string | undefined; agent: string | undefined }): Promise<number> {
  const agent = flags.agent;
  if (!agent) throw new MwsError('usage', 'Name the agent: `mws agent token <agent-id>`.');
  const loaded = await cliConfig({ config: flags.config });
  const r = await withControl(loaded.config, async ({ api, source }) => {
    if (source === 'running instance') return api.agentToken({ agent });
    if (!loaded.config.agents.some((a) => a.id === agent))
      throw new MwsError('agent_not_found', `No agent ${JSON.stringify(agent)} in ${loaded.path}.`);
    if (!loaded.exists)
      throw new MwsError('usage', `There is no config file at ${loaded.path} to save the token in; run \`mws init\` first.`);
    const token = newAgentToken();
    const editor = new ConfigEditor(loaded.path, loaded.raw, loaded.config.stateDir, async () => {});
    await editor.update((raw) => {
      if (!Array.isArray(raw.agents)) raw.agents = [];
      const list = raw.agents as Array<Record<string, unknown>>;
      let a = list.find((x) => x.id === agent);
      if (!a) list.push((a = { id: agent }));
      a.token = token;
    });
    return { agent, token, header: `Authorization: Bearer ${token}` };
  });
  io.out(
    `New token for agent "${r.agent}" (saved in the config; shown only now):\n  ${r.token}\nClients of this agent must send:\n  ${r.header}`,
  );
  return 0;
}
